// The moderation routes (/tmp/mod/contract.md): reports from everyone, the queue, actions and
// audit log for moderators, roles for admins, and one's own record, data and deletion.

import { call } from '../api';
import type { OkBody } from '../protocol';
import type { ActionBody, AuditEntry, MeWithStanding, MyEntry, Report, ReportBody, Role } from './types';

const q = encodeURIComponent;

export const moderation = {
  me: () => call<MeWithStanding>('GET', '/api/me'),
  report: (body: ReportBody) => call<{ id: number }>('POST', '/api/reports', body),
  reports: (status: 'open' | 'closed') =>
    call<{ reports: Report[] }>('GET', `/api/moderation/reports?status=${status}`).then((r) => r.reports),
  close: (id: number, note: string) => call<OkBody>('POST', `/api/moderation/reports/${id}/close`, { note }),
  act: (body: ActionBody) => call<{ ok: true; id: number }>('POST', '/api/moderation/actions', body),
  log: (user?: string) =>
    call<{ entries: AuditEntry[] }>('GET', `/api/moderation/log${user ? `?user=${q(user)}` : ''}`).then((r) => r.entries),
  grant: (user: string, role: Role) => call<OkBody>('POST', '/api/admin/roles', { user, role }),
  mine: () => call<{ entries: MyEntry[] }>('GET', '/api/me/moderation').then((r) => r.entries),
  deleteAccount: (password?: string) => call<OkBody>('DELETE', '/api/me', password ? { password } : {}),
};

/** Where the browser downloads one's data from (the server names the file). */
export const EXPORT_URL = '/api/me/export';

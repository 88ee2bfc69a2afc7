// The moderation routes (docs/moderation.md): reports from everyone, the queue, actions and
// audit log for moderators, roles for admins, and one's own record, data and deletion.

import { call } from '../api';
import type { ActionDone, AuditLog, OkBody, ReportCreated, ReportQueue } from '../protocol';
import type { ActionBody, MeWithStanding, ReportBody, Role } from './types';

const q = encodeURIComponent;

export const moderation = {
  me: () => call<MeWithStanding>('GET', '/api/me'),
  report: (body: ReportBody) => call<ReportCreated>('POST', '/api/reports', body),
  reports: (status: 'open' | 'closed') =>
    call<ReportQueue>('GET', `/api/moderation/reports?status=${status}`).then((r) => r.reports),
  close: (id: number, note: string) => call<OkBody>('POST', `/api/moderation/reports/${id}/close`, { note }),
  act: (body: ActionBody) => call<ActionDone>('POST', '/api/moderation/actions', body),
  log: (user?: string) =>
    call<AuditLog>('GET', `/api/moderation/log${user ? `?user=${q(user)}` : ''}`).then((r) => r.entries),
  grant: (user: string, role: Role) => call<OkBody>('POST', '/api/admin/roles', { user, role }),
  mine: () => call<AuditLog>('GET', '/api/me/moderation').then((r) => r.entries),
  deleteAccount: (password?: string) => call<OkBody>('DELETE', '/api/me', password ? { password } : {}),
};

/** Where the browser downloads one's data from (the server names the file). */
export const EXPORT_URL = '/api/me/export';

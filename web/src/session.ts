// Who is signed in (a guest is made on the first visit).

import { ensureUser } from './api';
import type { User } from './types';

let current: Promise<User> | null = null;

export const session = {
  user(): Promise<User> {
    if (!current) current = ensureUser();
    current.catch(() => (current = null));
    return current;
  },
  set(u: User | null) {
    current = u ? Promise.resolve(u) : null;
  },
};

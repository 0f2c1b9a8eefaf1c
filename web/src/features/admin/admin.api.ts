import { AdminUser, AdminUsers, Invitation, type UpdateUserBody } from '../../../../contract/admin.ts';
import type { HttpClient } from '../../api/http-client.ts';

export function fetchUsers(client: HttpClient, signal?: AbortSignal): Promise<AdminUsers> {
  return client.json('/api/admin/users', AdminUsers, { signal });
}

export function invite(client: HttpClient, email: string): Promise<Invitation> {
  return client.json('/api/admin/invitations', Invitation, { method: 'POST', body: { email } });
}

export function updateUser(client: HttpClient, id: string, change: UpdateUserBody): Promise<AdminUser> {
  return client.json(`/api/admin/users/${encodeURIComponent(id)}`, AdminUser, { method: 'PUT', body: change });
}

export function deleteUser(client: HttpClient, id: string): Promise<void> {
  return client.empty(`/api/admin/users/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

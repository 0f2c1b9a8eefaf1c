import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { ChecklistAddBody, ChecklistChangeBody, ChecklistItemParams } from '../../../contract/task-requests.ts';
import { Task, TaskIdParams } from '../../../contract/tasks.ts';
import type { TasksService } from './tasks.service.ts';

/** A task's checklist (docs/behaviour/tasks-and-notices.md); each call answers with the whole task. */
export const checklistsRoutes: FastifyPluginAsync<{ tasks: TasksService }> = async (app, { tasks }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const replies = { 200: Task, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 409: ErrorReply };

  routes.post(
    '/schedule/:id/checklist',
    { schema: { tags: ['tasks'], summary: 'Add an item, unticked, at the end of the task\'s checklist', params: TaskIdParams, body: ChecklistAddBody, response: replies } },
    async (request) => tasks.addChecklistItem(request.user.uid, request.params.id, request.body.text),
  );

  routes.put(
    '/schedule/:id/checklist/:itemId',
    { schema: { tags: ['tasks'], summary: 'Change an item\'s text, tick it or untick it', params: ChecklistItemParams, body: ChecklistChangeBody, response: replies } },
    async (request) => tasks.changeChecklistItem(request.user.uid, request.params.id, request.params.itemId, request.body),
  );

  routes.delete(
    '/schedule/:id/checklist/:itemId',
    { schema: { tags: ['tasks'], summary: 'Remove an item from the task\'s checklist', params: ChecklistItemParams, response: replies } },
    async (request) => tasks.removeChecklistItem(request.user.uid, request.params.id, request.params.itemId),
  );
};

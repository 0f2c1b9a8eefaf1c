import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { TaskList, TaskListBody, TaskListMembersBody, TaskListParams, TaskLists } from '../../../contract/task-lists.ts';
import type { ListsService } from './lists.service.ts';

const tags = ['tasks'];

/** Household lists (docs/behaviour/task-lists.md); registered beside the task gateway, behind requireUserOrApiToken. */
export const listsRoutes: FastifyPluginAsync<{ lists: ListsService }> = async (app, { lists }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/task-lists',
    {
      schema: { tags, summary: 'Your lists and those shared with you, by name', response: { 200: TaskLists, 401: ErrorReply } },
    },
    async (request) => lists.list(request.user.uid),
  );

  routes.post(
    '/api/task-lists',
    {
      schema: { tags, summary: 'Make a list', body: TaskListBody, response: { 201: TaskList, 400: ErrorReply, 401: ErrorReply } },
    },
    async (request, reply) => reply.status(201).send(await lists.create(request.user.uid, request.body)),
  );

  routes.patch(
    '/api/task-lists/:id',
    {
      schema: {
        tags,
        summary: 'Rename your list',
        params: TaskListParams,
        body: TaskListBody,
        response: { 200: TaskList, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => lists.rename(request.user.uid, request.params.id, request.body),
  );

  routes.delete(
    '/api/task-lists/:id',
    {
      schema: {
        tags,
        summary: 'Delete your list; its tasks go back to whoever made each, as their own tasks',
        params: TaskListParams,
        response: { 204: z.null(), 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await lists.remove(request.user.uid, request.params.id);
      return reply.code(204).send(null);
    },
  );

  routes.put(
    '/api/task-lists/:id/members',
    {
      schema: {
        tags,
        summary: 'Share your list with these accounts, by e-mail, replacing its members; one removed loses its tasks at once',
        params: TaskListParams,
        body: TaskListMembersBody,
        response: { 200: TaskList, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => lists.share(request.user.uid, request.params.id, request.body),
  );
};

import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { CreateTaskBody, TaskAction } from '../../../contract/task-requests.ts';
import { DonePage, DonePageQuery, Task, TaskCompletion, TaskIdParams, TaskPage, TaskPageQuery } from '../../../contract/tasks.ts';
import { checklistsRoutes } from './checklists.routes.ts';
import type { TasksService } from './tasks.service.ts';

// Header names arrive lower-cased; other headers pass through untouched.
const PageHeaders = z.looseObject({ pagecursor: z.string().max(500, 'must be at most 500 characters').optional() });

/** The task gateway of docs/behaviour/tasks-and-notices.md, at its own paths; registered behind requireUserOrApiToken. */
export const tasksRoutes: FastifyPluginAsync<{ tasks: TasksService }> = async (app, { tasks }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  await app.register(checklistsRoutes, { tasks });

  routes.get(
    '/schedule',
    {
      schema: {
        tags: ['tasks'],
        summary:
          'Tasks by status: active (the default) soonest due first, done (made inactive by Complete past their end) latest due first, or all soonest due first; your own and those of your household lists, or with list= one list\'s (none: your own); send the previous reply\'s cursor as the pageCursor header',
        querystring: TaskPageQuery,
        headers: PageHeaders,
        response: { 200: TaskPage, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => tasks.page(request.user.uid, request.query.status, request.headers.pagecursor, request.query.pageSize, request.query.list),
  );

  routes.get(
    '/schedule/completions',
    {
      schema: {
        tags: ['tasks'],
        summary:
          'The Done list: every occurrence completed, of one-off and repeating tasks, the latest completed first; send the previous reply\'s cursor as the pageCursor header',
        querystring: DonePageQuery,
        headers: PageHeaders,
        response: { 200: DonePage, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => tasks.done(request.user.uid, request.headers.pagecursor, request.query.pageSize),
  );

  routes.post(
    '/schedule',
    {
      schema: {
        tags: ['tasks'],
        summary: 'Create a task',
        body: CreateTaskBody,
        response: { 200: Task, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => tasks.create(request.user.uid, request.body),
  );

  routes.get(
    '/schedule/:id',
    {
      schema: {
        tags: ['tasks'],
        summary: 'One task',
        params: TaskIdParams,
        response: { 200: Task, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => tasks.get(request.user.uid, request.params.id),
  );

  routes.put(
    '/schedule/:id',
    {
      schema: {
        tags: ['tasks'],
        summary: 'Change one field ({type: "update", key, value}) or complete the current occurrence ({type: "complete"})',
        params: TaskIdParams,
        body: TaskAction,
        response: { 200: Task, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 409: ErrorReply },
      },
    },
    async (request) => tasks.act(request.user.uid, request.params.id, request.body),
  );

  routes.delete(
    '/schedule/:id',
    {
      schema: {
        tags: ['tasks'],
        summary: 'Delete the task with its pending notices and its history; a notice being sent at that moment goes once',
        params: TaskIdParams,
        response: { 204: z.null(), 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await tasks.delete(request.user.uid, request.params.id);
      return reply.code(204).send(null);
    },
  );

  routes.get(
    '/schedule/:id/completions',
    {
      schema: {
        tags: ['tasks'],
        summary: 'The task\'s completions, newest first (the newest 100): which occurrence and when',
        params: TaskIdParams,
        response: { 200: z.array(TaskCompletion), 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => tasks.completions(request.user.uid, request.params.id),
  );
};

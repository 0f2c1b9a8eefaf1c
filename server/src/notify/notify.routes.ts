import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { NtfyTopic, PushDevice, PushDevices, PushSubscriptionBody, VapidPublicKey } from '../../../contract/notify.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import type { ChannelsStore, PushSubscriptionRow } from './channels.store.ts';
import type { DoneOccurrence, DoneTokens } from './done-tokens.ts';
import { ChannelError, type Notifier } from './notifier.ts';

/** Enough for every browser and phone of one person; more is a runaway script. */
export const MAX_PUSH_DEVICES = 20;

const toDevice = (row: PushSubscriptionRow): PushDevice => ({ id: row.id, endpoint: row.endpoint, created_at: new Date(Number(row.created_at)).toISOString() });

/** A P-256 public key, uncompressed (65 bytes, 0x04 first), and a 16-byte auth secret: what a browser's keys are. */
function checkKeys(body: PushSubscriptionBody): void {
  const key = Buffer.from(body.keys.p256dh, 'base64url');
  if (key.length !== 65 || key[0] !== 4) throw new AppError(400, 'keys.p256dh must be an uncompressed P-256 public key (65 bytes)');
  if (Buffer.from(body.keys.auth, 'base64url').length !== 16) throw new AppError(400, 'keys.auth must be 16 bytes');
}

type Options = { channels: ChannelsStore; notifier: Notifier; vapidPublicKey: string; clock: Clock };

/** The signed-in user's channels besides mail: Web Push devices and an ntfy topic; registered behind requireUser. */
export const notifyRoutes: FastifyPluginAsync<Options> = async (app, { channels, notifier, vapidPublicKey, clock }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const IdParams = z.object({ id: z.string().max(100) });

  routes.get(
    '/api/notify/vapid-public-key',
    { schema: { tags: ['notices'], summary: "The server's VAPID public key: a push subscription's applicationServerKey", response: { 200: VapidPublicKey, 401: ErrorReply } } },
    async () => ({ public_key: vapidPublicKey }),
  );

  routes.get(
    '/api/notify/push-subscriptions',
    { schema: { tags: ['notices'], summary: 'The devices that get notices by Web Push', response: { 200: PushDevices, 401: ErrorReply } } },
    async (request) => (await channels.subscriptionsOf(request.user.uid)).map(toDevice),
  );

  routes.post(
    '/api/notify/push-subscriptions',
    {
      schema: {
        tags: ['notices'],
        summary: "Add this device: the browser's PushSubscription as JSON (added again, its keys are renewed)",
        body: PushSubscriptionBody,
        response: { 201: PushDevice, 400: ErrorReply, 401: ErrorReply, 409: ErrorReply },
      },
    },
    async (request, reply) => {
      checkKeys(request.body);
      const devices = await channels.subscriptionsOf(request.user.uid);
      if (devices.length >= MAX_PUSH_DEVICES && !devices.some((one) => one.endpoint === request.body.endpoint)) {
        throw new AppError(409, `At most ${MAX_PUSH_DEVICES} devices get notices; remove one first`);
      }
      return reply.code(201).send(toDevice(await channels.addSubscription(request.user.uid, request.body, clock.now())));
    },
  );

  routes.delete(
    '/api/notify/push-subscriptions/:id',
    { schema: { tags: ['notices'], summary: 'Stop Web Push notices to a device', params: IdParams, response: { 204: z.null(), 401: ErrorReply, 404: ErrorReply } } },
    async (request, reply) => {
      if (!(await channels.removeSubscription(request.user.uid, request.params.id))) throw notFound('Device');
      return reply.code(204).send(null);
    },
  );

  routes.get(
    '/api/notify/ntfy',
    { schema: { tags: ['notices'], summary: 'The ntfy topic notices are posted to', response: { 200: NtfyTopic, 401: ErrorReply } } },
    async (request) => ({ url: await channels.ntfyTopicOf(request.user.uid) }),
  );

  routes.put(
    '/api/notify/ntfy',
    {
      schema: { tags: ['notices'], summary: 'Set the ntfy topic (http or https), or clear it with null', body: NtfyTopic, response: { 200: NtfyTopic, 400: ErrorReply, 401: ErrorReply } },
    },
    async (request) => {
      await channels.setNtfyTopic(request.user.uid, request.body.url, clock.now());
      return { url: request.body.url };
    },
  );

  routes.post(
    '/api/notify/ntfy/test',
    { schema: { tags: ['notices'], summary: 'Post a test notice to the ntfy topic', response: { 204: z.null(), 401: ErrorReply, 409: ErrorReply, 422: ErrorReply } } },
    async (request, reply) => {
      const topic = await channels.ntfyTopicOf(request.user.uid);
      if (topic === null) throw new AppError(409, 'No ntfy topic is set');
      try {
        await notifier.testNtfy(topic);
      } catch (error) {
        if (error instanceof ChannelError) throw new AppError(422, error.message);
        throw error;
      }
      return reply.code(204).send(null);
    },
  );
};

type DoneOptions = {
  doneTokens: DoneTokens;
  clock: Clock;
  /** Completes that occurrence of the task, or throws a 409 when the task has moved on. */
  complete(occurrence: DoneOccurrence): Promise<void>;
};

/** A notice's Done (`POST` from a push notice's action or ntfy's): the link itself is the credential. */
export const noticeDoneRoutes: FastifyPluginAsync<DoneOptions> = async (app, { doneTokens, clock, complete }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/notify/done/:token',
    {
      schema: {
        tags: ['notices'],
        summary: "Complete the occurrence a notice told of; single-use, for a week; 409 if the task has moved on",
        params: z.object({ token: z.string().max(100) }),
        response: { 204: z.null(), 404: ErrorReply, 409: ErrorReply, 410: ErrorReply },
      },
    },
    async (request, reply) => {
      const claim = await doneTokens.claim(request.params.token, clock.now());
      if (claim === 'unknown') throw notFound('Done link');
      if (claim === 'spent') throw new AppError(410, 'This Done link has been used or has expired');
      try {
        await complete(claim.occurrence);
      } catch (error) {
        await claim.release();
        throw error;
      }
      return reply.code(204).send(null);
    },
  );
};

import type { FastifyInstance } from 'fastify';

const firstSegment = (url: string) => url.split(/[/?]/)[1] ?? '';

/**
 * The API's paths, learnt from its routes as they are registered: a path whose first segment one
 * of them has (`/api`, `/auth`, `/schedule`…) is the API's, so an unknown one there is a JSON 404
 * rather than the client's page.
 */
export function createApiPaths() {
  const segments = new Set<string>();
  return {
    /** Learns from every route registered in `scope` and its children from now on. */
    learnFrom(scope: FastifyInstance): void {
      scope.addHook('onRoute', (route) => {
        segments.add(firstSegment(route.url));
      });
    },
    has: (url: string): boolean => segments.has(firstSegment(url)),
  };
}

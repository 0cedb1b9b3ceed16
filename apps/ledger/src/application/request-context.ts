/** Who is asking, and under which correlation id: stamped on every event a request causes. */
export interface RequestContext {
  correlationId: string;
  actor: string;
  requestId: string | null;
}

export const systemContext = (component: string, correlationId: string): RequestContext => ({
  correlationId,
  actor: `system:${component}`,
  requestId: null,
});

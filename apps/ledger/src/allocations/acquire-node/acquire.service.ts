import { Inject, Injectable } from '@nestjs/common';
import { refuse, Streams, type Consumer, type NodeReply, type Refusal } from '@ledger/domain';
import { isConcurrencyError, type EventStore } from '@ledger/event-store';
import { acquirableNodes, type NodeConstraints } from '@ledger/projections';
import { CLOCK, EVENT_STORE, RANDOMNESS } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import type { Randomness } from '../../infrastructure/randomness';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { NodeCommandService, refusedNodeCommand } from '../../application/node-command.service';
import { RefusalRecorder } from '../../application/refusal-recorder';
import { fingerprintOf, hashSecret } from '../../application/fingerprint';
import { toNewEvents } from '../../application/envelopes';
import type { RequestContext } from '../../application/request-context';

export interface AcquireRequest {
  requestId: string;
  consumer: Consumer;
  nodeId?: string;
  constraints?: NodeConstraints;
  reservationKey?: string;
  /** Nodes a constraint-based acquire must not pick (the provider refused them). */
  excludeNodeIds?: string[];
}

interface AcquireRoute {
  requestId: string;
  fingerprint: string;
  nodeId: string;
}

/** Refusals that mean "that node went to someone else": a constraint-based acquire moves on. */
const TRY_ANOTHER_NODE: ReadonlySet<string> = new Set(['node_unavailable', 'node_reserved', 'node_faulted', 'node_in_maintenance']);
const MAX_ROUNDS = 50;

/**
 * Acquire by nodeId or by constraints, exactly once per requestId.
 *
 * A request is first routed: `request-{requestId}` records which node it was decided
 * on, appended with an expected revision. Copies of one request (retries, or the same
 * request sent twice at once, to any ledger instance) read that route and go to the
 * same node, where the node's own stream replays the first answer. A constraint-based
 * acquire whose node was taken meanwhile moves its route on, again with an expected
 * revision, so two copies can never land on two nodes.
 */
@Injectable()
export class AcquireService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RANDOMNESS) private readonly random: Randomness,
    private readonly nodes: NodeCommandService,
    private readonly views: LedgerViewService,
    private readonly refusals: RefusalRecorder,
  ) {}

  async acquire(request: AcquireRequest, context: RequestContext): Promise<{ reply: NodeReply; position: number | null }> {
    const keyHash = request.reservationKey ? hashSecret(request.reservationKey) : null;
    const fingerprint = fingerprintOf({
      consumer: request.consumer,
      nodeId: request.nodeId,
      constraints: request.constraints,
      keyHash,
      ...(request.excludeNodeIds ? { excludeNodeIds: request.excludeNodeIds } : {}),
    });
    const routeStream = Streams.request(request.requestId);
    if (request.nodeId !== undefined && !(await this.nodes.isEnlisted(request.nodeId))) {
      return this.refusals.refuse(
        refusedNodeCommand({ type: 'AcquireNode', nodeId: request.nodeId, consumer: request.consumer }),
        refuse('not_found', `node ${request.nodeId} is not enlisted`).refusal,
        context,
      );
    }
    const tried = new Set<string>(request.excludeNodeIds ?? []);

    // Almost every request is new: the first round routes it without reading its route
    // stream, and a copy that was routed first finds out when that append fails its
    // expected revision ('no_stream'), then reads the route in the next round.
    let routesRead = false;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const routes = routesRead ? await this.store.readStream(routeStream) : [];
      const route = routes.length > 0 ? (routes[routes.length - 1].data as AcquireRoute) : null;
      if (route && route.fingerprint !== fingerprint) {
        return this.refused(
          route.nodeId,
          request,
          refuse('request_conflict', `requestId ${request.requestId} was already used with a different request`).refusal,
          context,
        );
      }
      const nodeId = route?.nodeId ?? request.nodeId ?? (await this.pick(request, tried));
      // No node left may be this request's own doing: a copy routed first may hold it.
      if (!nodeId && !routesRead) {
        routesRead = true;
        continue;
      }
      if (!nodeId) return this.noMatchingNode(request, context);
      let routeRevision = routes.length - 1;
      if (!route) {
        if (!(await this.route(routeStream, { requestId: request.requestId, fingerprint, nodeId }, 'no_stream', context))) {
          routesRead = true;
          continue;
        }
        routeRevision = 0;
        // The route exists from here on: a later round (another node) reads it.
        routesRead = true;
      }

      const now = this.clock().toISOString();
      const outcome = await this.nodes.attempt(
        {
          type: 'AcquireNode',
          nodeId,
          consumer: request.consumer,
          request: { requestId: request.requestId, fingerprint },
          reservationKeyHash: keyHash,
          tokenEntropy: this.random.tokenEntropy(),
          now,
        },
        context,
      );
      if ('accepted' in outcome) return { reply: outcome.accepted.reply, position: outcome.accepted.position };

      tried.add(nodeId);
      if (request.nodeId || !TRY_ANOTHER_NODE.has(outcome.refused.code)) {
        return this.refusals.refuse(refusedNodeCommand({ type: 'AcquireNode', nodeId, consumer: request.consumer }), outcome.refused, context);
      }
      const next = await this.pick(request, tried);
      if (!next) return this.noMatchingNode(request, context);
      await this.route(routeStream, { requestId: request.requestId, fingerprint, nodeId: next }, routeRevision, context);
    }
    throw new Error(`acquire ${request.requestId}: no decision after ${MAX_ROUNDS} rounds`);
  }

  /** Records the route; false if another copy of the request routed it first. */
  private async route(stream: string, route: AcquireRoute, expected: 'no_stream' | number, context: RequestContext): Promise<boolean> {
    try {
      await this.store.appendToStream(
        stream,
        toNewEvents([{ type: 'AcquireRouted', data: route }], context, () => this.random.uuid()),
        expected,
      );
      return true;
    } catch (error) {
      if (isConcurrencyError(error)) return false;
      throw error;
    }
  }

  /** A free matching node; copies of different requests start at different places so they rarely collide. */
  private async pick(request: AcquireRequest, tried: ReadonlySet<string>): Promise<string | null> {
    const candidates = acquirableNodes(await this.views.current(), request.constraints ?? {}, this.clock()).filter((node) => !tried.has(node.nodeId));
    if (candidates.length === 0) return null;
    const start =
      parseInt(
        fingerprintOf(request.requestId)
          .slice(0, 6)
          .replace(/[^0-9a-f]/gi, '0'),
        16,
      ) % candidates.length;
    return candidates[start].nodeId;
  }

  private async noMatchingNode(request: AcquireRequest, context: RequestContext): Promise<never> {
    return this.refused(
      null,
      request,
      refuse('no_matching_node', 'no ready node matches the constraints', { constraints: request.constraints ?? {} }).refusal,
      context,
    );
  }

  private refused(nodeId: string | null, request: AcquireRequest, refusal: Refusal, context: RequestContext): Promise<never> {
    return this.refusals.refuse(
      { command: 'AcquireNode', nodeId, token: null, consumer: { controller: request.consumer.controller, model: request.consumer.model } },
      refusal,
      context,
    );
  }
}

import { CanActivate, ExecutionContext, HttpException, HttpStatus, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseDeviceId, parseToken, type Consumer } from '@ledger/domain';
import { LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import { LedgerViewService } from '../read-models/ledger-view.service';
import { NodeCommandService } from '../application/node-command.service';
import { RefusalRecorder } from '../application/refusal-recorder';
import { KeyRegistry } from './key-registry';
import { ruleFor, type AccessRule } from './access-policy';
import { inScope, RateLimiter, type Principal } from '@ledger/access';

type LedgerRequest = FastifyRequest<{ Params: Record<string, string | undefined> }> & { principal?: Principal };

/** The route pattern as the controller declares it (`/v1/allocations/:token/release`), the access policy's key. */
const routeOf = (request: LedgerRequest): string | undefined => request.routeOptions.url;

const tooManyRequests = (response: FastifyReply, wait: number, message: string): HttpException => {
  void response.header('Retry-After', String(wait));
  return new HttpException({ code: 'too_many_requests', message }, HttpStatus.TOO_MANY_REQUESTS);
};

/** Operators only, for any route the policy table does not name. */
const UNLISTED: AccessRule = { method: '*', path: '*', roles: ['operator'] };

/**
 * Authenticates the bearer key, rate-limits its holder (or, without a valid key, the
 * client's address), and checks the access policy:
 * the role, and for consumer keys the controller/model scope of what the request names.
 * A denied attempt is answered 403 and recorded in the log.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly limiter: RateLimiter;
  /** Requests that bring no valid key, per client address: a flood of wrong keys is limited too. */
  private readonly failures: RateLimiter;

  constructor(
    private readonly keys: KeyRegistry,
    private readonly views: LedgerViewService,
    private readonly nodes: NodeCommandService,
    private readonly refusals: RefusalRecorder,
    @Inject(LEDGER_CONFIG) config: LedgerConfig,
  ) {
    this.limiter = new RateLimiter(config.rateLimitPerSecond, config.rateLimitBurst);
    this.failures = new RateLimiter(config.authFailureRatePerSecond, config.authFailureBurst);
  }

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    const request = execution.switchToHttp().getRequest<LedgerRequest>();
    const response = execution.switchToHttp().getResponse<FastifyReply>();
    const rule = ruleFor(request.method, routeOf(request) ?? '') ?? UNLISTED;
    if (rule.roles.length === 0) return true;

    const principal = this.authenticate(request, response);
    request.principal = principal;
    const wait = this.limiter.take(principal.keyId);
    if (wait > 0) throw tooManyRequests(response, wait, `rate limit exceeded for ${principal.name}; retry in ${wait}s`);

    if (!rule.roles.includes(principal.role)) return this.deny(request, principal, `role ${principal.role} may not ${request.method} ${rule.path}`, null);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const flag = principal.role === 'operator' ? undefined : rule.operatorOnlyFlags?.find((name) => body[name] === true);
    if (flag) return this.deny(request, principal, `only an operator may set ${flag}`, null);
    if (principal.role === 'consumer') await this.checkScope(rule, request, principal, body);
    return true;
  }

  private authenticate(request: LedgerRequest, response: FastifyReply): Principal {
    const header = request.headers.authorization;
    const key = typeof header === 'string' && /^Bearer [^\s]{1,200}$/.test(header) ? header.slice(7) : null;
    const principal = key ? this.keys.authenticate(key, String(request.id)) : null;
    if (!principal) {
      // Charged to the client's address: an unauthenticated caller has no key to charge.
      const wait = this.failures.take(`address:${request.ip ?? 'unknown'}`);
      if (wait > 0) throw tooManyRequests(response, wait, `too many requests without a valid API key from this address; retry in ${wait}s`);
      void response.header('WWW-Authenticate', 'Bearer realm="provisioning-ledger"');
      throw new UnauthorizedException({
        code: 'unauthorized',
        message: key ? 'the API key is not valid' : 'an API key is required: Authorization: Bearer <key>',
      });
    }
    return principal;
  }

  private async checkScope(rule: AccessRule, request: LedgerRequest, principal: Principal, body: Record<string, unknown>): Promise<void> {
    if (rule.consumerScope === 'body-consumer') {
      const consumer = body.consumer as Partial<Consumer> | undefined;
      if (
        consumer &&
        typeof consumer.controller === 'string' &&
        !inScope(principal, { controller: consumer.controller, model: typeof consumer.model === 'string' ? consumer.model : undefined })
      ) {
        await this.deny(request, principal, `key ${principal.name} may not act for ${consumer.controller}/${String(consumer.model)}`, null);
      }
    }
    if (rule.consumerScope === 'token' || rule.consumerScope === 'device') {
      const token = rule.consumerScope === 'token' ? String(request.params.token ?? '') : await this.tokenOfDevice(String(request.params.deviceId ?? ''));
      const owner = await this.ownerOf(token);
      if (owner && !inScope(principal, owner.consumer)) {
        await this.deny(request, principal, `key ${principal.name} may not act on or read another controller's allocation`, owner.nodeId);
      }
    }
  }

  /**
   * Whose allocation a token is: tokens never change hands, so the read model's answer is
   * final, and so is the node's state this process folded when it issued the token (the
   * read model hears of a commit a little after its answer); another token is read from
   * its node stream.
   */
  private async ownerOf(token: string): Promise<{ consumer: Consumer; nodeId: string } | null> {
    const parsed = parseToken(token);
    if (!parsed) return null;
    const known = this.views.view.allocations[token];
    if (known) return { consumer: known.consumer, nodeId: known.nodeId };
    const state = await this.nodes.load(parsed.nodeId, (folded) => folded.allocation?.token === token);
    return state.allocation?.token === token ? { consumer: state.allocation.consumer, nodeId: parsed.nodeId } : null;
  }

  /** A device's parent allocation never changes: the read model's answer is final, as is a state folded here that has the device; else its node stream says. */
  private async tokenOfDevice(deviceId: string): Promise<string> {
    const parsed = parseDeviceId(deviceId);
    if (!parsed) return '';
    const known = this.views.view.devices[deviceId]?.token;
    if (known) return known;
    return (await this.nodes.load(parsed.nodeId, (folded) => folded.devices[deviceId] !== undefined)).devices[deviceId]?.token ?? '';
  }

  /** A denied attempt goes down the one refusal path: recorded, then answered 403 by the exception filter. */
  private deny(request: LedgerRequest, principal: Principal, message: string, nodeId: string | null): Promise<never> {
    return this.refusals.refuse(
      {
        command: `${request.method} ${routeOf(request) ?? request.url.split('?')[0]}`,
        nodeId,
        token: typeof request.params.token === 'string' ? request.params.token : null,
      },
      { code: 'forbidden', message },
      { correlationId: String(request.id), actor: principal.name, requestId: null },
    );
  }
}

import { BadRequestException } from '@nestjs/common';
import type { AuditFilter } from '@ledger/projections';
import { LEDGER_ID } from '@ledger/domain';
import { integerParam, matching, queryParams, timeParam } from '../http/query-params';

const FILTERS = ['nodeId', 'token', 'ip', 'controller', 'model', 'type', 'from', 'to', 'after', 'limit', 'format', 'minPosition'] as const;
const TEXT = /^[^\u0000-\u001f]{1,128}$/;
const TYPES = /^[A-Za-z][A-Za-z0-9_.:-]{0,127}(,[A-Za-z][A-Za-z0-9_.:-]{0,127}){0,19}$/;

export const DEFAULT_AUDIT_LIMIT = 100;
export const MAX_AUDIT_LIMIT = 1_000;

/** `GET /v1/audit/events` query parameters, checked one by one: a bad one is a 400 that names it. */
export const parseAuditFilter = (
  query: Record<string, unknown>,
): { filter: AuditFilter; format: 'json' | 'ndjson' | undefined; minPosition: number | undefined } => {
  const params = queryParams(query, FILTERS);
  const filter: AuditFilter = {
    nodeId: matching('nodeId', params.nodeId, LEDGER_ID, 'a node id'),
    token: matching('token', params.token, /^[A-Za-z0-9._-]{1,512}$/, 'a provisioning token'),
    ip: matching('ip', params.ip, /^[0-9A-Fa-f.:]{2,64}$/, 'an IPv4 or IPv6 address'),
    controller: matching('controller', params.controller, TEXT, '1-128 printable characters'),
    model: matching('model', params.model, TEXT, '1-128 printable characters'),
    types: matching('type', params.type, TYPES, 'an event type, or several separated by commas')?.split(','),
    from: timeParam('from', params.from),
    to: timeParam('to', params.to),
    after: integerParam('after', params.after, 0, Number.MAX_SAFE_INTEGER),
    limit: integerParam('limit', params.limit, 1, MAX_AUDIT_LIMIT) ?? DEFAULT_AUDIT_LIMIT,
  };
  if (filter.from && filter.to && filter.from.getTime() > filter.to.getTime()) {
    throw new BadRequestException({ code: 'invalid_request', message: 'from must not be after to' });
  }
  const format = matching('format', params.format, /^(json|ndjson)$/, 'json or ndjson') as 'json' | 'ndjson' | undefined;
  return { filter, format, minPosition: integerParam('minPosition', params.minPosition, 0, Number.MAX_SAFE_INTEGER) };
};

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ACCESS_POLICY } from '../../access/access-policy';
import { ApiErrorDto } from '../api-error.dto';
import { withCommonAnswers } from '../common-answers';
import { setRoles } from '../operation-roles';
import { withBodyRules } from '../schema-rules';
import { withNullableReferences } from '../nullable-references';
import { withStrictRequestBodies } from '../strict-request-bodies';

/** The operations' groups, in the order a reader meets them. */
const TAGS: { name: string; description: string }[] = [
  { name: 'nodes', description: 'Machines a provider knows: enlist, list, read.' },
  { name: 'reservations', description: 'A hold on a node for an agent, with a secret key and a TTL (seed 3).' },
  { name: 'allocations', description: 'Acquire a node for a consumer, report deployment, release: every allocation has its fencing token (seed 1).' },
  { name: 'devices and leases', description: 'Containers and VMs on an allocation, and IP leases owned by an allocation or a device (seed 2).' },
  { name: 'node health', description: 'Operator maintenance; automatic faults clear themselves (seed 4).' },
  { name: 'observations', description: 'What providers and DHCP servers saw.' },
  { name: 'reconcile', description: "A consumer's inventory checked against the ledger, with the safe action for each item." },
  { name: 'audit and time travel', description: 'The log, filtered and paged or streamed; any state as it stood at a time or position.' },
  { name: 'admin', description: 'Read models: their positions, and rebuilds.' },
  { name: 'operations', description: 'Health and Prometheus metrics.' },
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** `/v1/nodes/:nodeId` (Express, the access policy) as OpenAPI writes it: `/v1/nodes/{nodeId}`. */
export const openApiPath = (routePath: string): string => routePath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Who may call each operation, from the access policy (the one table the guard enforces). */
const withRoles = (document: OpenAPIObject): void => {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const rule = ACCESS_POLICY.find((r) => r.method === method.toUpperCase() && openApiPath(r.path) === path);
      // A route missing from the policy is the guard's UNLISTED rule: operators only.
      const roles = rule ? [...rule.roles] : ['operator'];
      const scope = rule?.consumerScope && rule.consumerScope !== 'none' ? ` Consumer keys only for their own controller/model (${rule.consumerScope}).` : '';
      const operatorOnly = rule?.operatorOnlyFlags?.length ? ` Only an operator may set ${rule.operatorOnlyFlags.join(', ')}.` : '';
      setRoles(operation, roles);
      operation.security = roles.length === 0 ? [] : [{ bearer: [] }];
      const who = roles.length === 0 ? 'Roles: anyone, no key needed.' : `Roles: ${roles.join(', ')}.${scope}${operatorOnly}`;
      operation.description = [operation.description, who].filter(Boolean).join('\n\n');
    }
  }
};

/**
 * The OpenAPI 3 document of the ledger's HTTP API, generated from the controllers and
 * their DTOs, with the roles of the access policy and the answers every route shares.
 */
export const createOpenApiDocument = (app: INestApplication): OpenAPIObject => {
  const config = new DocumentBuilder()
    .setTitle('Provisioning ledger')
    .setDescription(
      'Event-sourced provisioning ledger: fencing tokens for bare-metal allocations, leases that never outlive their owner. ' +
        'Every command answers with the global position of its events; pass it as minPosition to a query to read your own writes.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (ledger-cli keys add)' }, 'bearer')
    .addServer('/', 'The ledger that serves this document')
    .build();
  config.tags = TAGS;
  // As package.json says: not licensed for use outside its owner.
  config.info.license = { name: 'UNLICENSED' };
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ApiErrorDto],
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  withRoles(document);
  withCommonAnswers(document);
  withBodyRules(document);
  withStrictRequestBodies(document);
  withNullableReferences(document);
  return document;
};

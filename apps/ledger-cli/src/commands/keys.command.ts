import { join } from 'node:path';
import { addKey, maasKeyOf, readKeysFile, revokeKey, ROLES, type Role } from '@ledger/access';
import { stringFlag } from '../parse-args';
import { UsageError, type CliCommand } from '../cli-command';

const USAGE = `usage:
  ledger-cli keys add --name NAME --role consumer|provider|operator|auditor [--controller C [--models m1,m2]] [--maas-key]
  ledger-cli keys list
  ledger-cli keys revoke KEY_ID
options:
  --keys-file F   the keys file (default: LEDGER_KEYS_FILE, else $LEDGER_DATA_DIR/keys.json, else ./data/keys.json)
--maas-key      print the key in MAAS's format (consumer:token:secret), for Juju talking to the MAAS facade
A new key is printed once; only its hash is stored. The running ledger picks up changes within a second.`;

/** API keys: each is a principal with a role; consumer keys are scoped to a controller. */
export const keysCommand: CliCommand = {
  name: 'keys',
  summary: 'add, list or revoke API keys',
  options: {
    'keys-file': { type: 'string' },
    name: { type: 'string' },
    role: { type: 'string' },
    controller: { type: 'string' },
    models: { type: 'string' },
    'maas-key': { type: 'boolean' },
  },
  usage: USAGE,
  async run(args, io) {
    const file = stringFlag(args, 'keys-file') ?? io.env.LEDGER_KEYS_FILE ?? join(io.env.LEDGER_DATA_DIR ?? './data', 'keys.json');
    const [action, keyId] = args.positional;
    switch (action) {
      case 'add': {
        const name = stringFlag(args, 'name');
        const role = stringFlag(args, 'role') as Role | undefined;
        const controller = stringFlag(args, 'controller');
        const models = stringFlag(args, 'models')
          ?.split(',')
          .map((m) => m.trim())
          .filter(Boolean);
        if (!name || !/^[A-Za-z0-9._@:-]{1,64}$/.test(name)) throw new UsageError('--name is required: 1-64 letters, digits or . _ @ : -');
        if (!role || !ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
        if (role === 'consumer' && !controller) throw new UsageError('a consumer key needs --controller');
        if (role !== 'consumer' && controller) throw new UsageError('only consumer keys are scoped to a controller');
        const { key, stored } = addKey(file, { name, role, scope: controller ? { controller, ...(models ? { models } : {}) } : null }, new Date());
        io.err(
          `added key ${stored.keyId} (${role}${controller ? ` for ${controller}${models ? `/${models.join(',')}` : ''}` : ''}) to ${file}; the key is shown once:`,
        );
        io.out(args.flags['maas-key'] === true ? (maasKeyOf(key) ?? key) : key);
        return 0;
      }
      case 'list': {
        for (const k of readKeysFile(file).keys) {
          const scope = k.scope ? ` ${k.scope.controller}${k.scope.models ? `/${k.scope.models.join(',')}` : ''}` : '';
          io.out(`${k.keyId}  ${k.role.padEnd(8)} ${k.name}${scope}  created ${k.createdAt}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ''}`);
        }
        return 0;
      }
      case 'revoke': {
        if (!keyId) throw new UsageError('revoke needs a KEY_ID (see keys list)');
        if (!revokeKey(file, keyId, new Date())) {
          io.err(`no active key ${keyId} in ${file}`);
          return 1;
        }
        io.out(`revoked ${keyId}`);
        return 0;
      }
      default:
        throw new UsageError(`unknown keys action "${action ?? ''}"`);
    }
  },
};

import { after, before } from 'node:test';
import { LedgerProcess, addKey, until } from '@ledger/testing';
import { MaasStandIn, type StandInMachineSpec } from './maas-stand-in/maas-stand-in';
import { MaasFacadeProcess } from './maas-facade-process';
import { JujuMaasClient, type JujuOutcome } from './juju-maas-client/juju-maas-client';
import type { Schema } from './answers';

/** The facade's own key at the MAAS stand-in (as an operator would create one in MAAS for it). */
const FACADE_MAAS_KEY = 'FacadeConsumer1:FacadeToken12345:FacadeSecret1234567890';

export interface FacadeWorld {
  ledger: LedgerProcess;
  maas: MaasStandIn;
  facade: MaasFacadeProcess;
  juju: JujuMaasClient;
  /** MAAS-format keys by name, from `ledger-cli keys add --maas-key`. */
  keys: Record<string, string>;
  /** Runs one gomaasapi command against the facade with the named controller's key. */
  as(name: string, command: string, args?: Record<string, string | string[]>): Promise<JujuOutcome>;
}

/**
 * The real ledger, the MAAS stand-in with these machines, the facade between them (its one
 * command), and Juju's MAAS client built from Debian's gomaasapi; one consumer key per
 * controller, issued in MAAS format. Started before the suite, stopped after it.
 */
export const useFacadeWorld = (machines: StandInMachineSpec[], controllers: Record<string, string>): (() => FacadeWorld) => {
  let world: FacadeWorld | undefined;
  before(async () => {
    const [ledger, juju] = await Promise.all([LedgerProcess.start(), JujuMaasClient.build()]);
    const maas = new MaasStandIn(FACADE_MAAS_KEY);
    for (const machine of machines) maas.addMachine(machine);
    const maasUrl = await maas.start();
    const keys: Record<string, string> = {};
    for (const [name, controller] of Object.entries(controllers)) {
      keys[name] = addKey(ledger.dataDir, '--name', name, '--role', 'consumer', '--controller', controller, '--maas-key');
    }
    const facadeKey = addKey(ledger.dataDir, '--name', 'maas-facade', '--role', 'provider');
    const facade = await MaasFacadeProcess.start({
      LEDGER_URL: ledger.url,
      LEDGER_API_KEY: facadeKey,
      LEDGER_MAAS_URL: maasUrl,
      LEDGER_MAAS_API_KEY: FACADE_MAAS_KEY,
      LEDGER_MAAS_POLL_MS: '100',
    });
    world = {
      ledger,
      maas,
      facade,
      juju,
      keys,
      as: (name, command, args = {}) => juju.run(facade.url, keys[name], command, args),
    };
    // The ledger re-reads its keys file at most once a second; the facade enlists MAAS's machines on its first poll.
    await until(async () => {
      const nodes = await ledger.get<Schema<'NodeListResponseDto'>>('/v1/nodes');
      if (nodes.body.nodes?.length !== machines.length) throw new Error(`${nodes.body.nodes?.length} nodes enlisted`);
      const first = Object.keys(keys)[0];
      if (first && !(await world!.as(first, 'connect')).ok) throw new Error('keys not loaded yet');
    });
  });
  after(async () => {
    await world?.facade.stop();
    await world?.maas.stop();
    await world?.ledger.stop();
    world?.ledger.removeData();
    world?.juju.remove();
  });
  return () => {
    if (!world) throw new Error('the facade world is not started yet: call the getter inside a test');
    return world;
  };
};

import type { Consumer } from '@ledger/domain';
import type { SeededRandom } from './seeded-random';

const CONTROLLERS = ['fair-clouds', 'edge-east', 'edge-west'];
const MODELS = ['mobile-app', 'show-me-the-money', 'billing', 'ci', 'data-lake', 'search', 'kubernetes', 'observability'];

/** The simulation's consumers: Juju models of a few controllers, each numbering its machines from 1 as Juju does. */
export class SimulatedConsumers {
  private readonly machines = new Map<string, number>();

  constructor(private readonly random: SeededRandom) {}

  next(): Consumer {
    const controller = this.random.pick(CONTROLLERS);
    const model = this.random.pick(MODELS);
    const key = `${controller}/${model}`;
    const machine = (this.machines.get(key) ?? 0) + 1;
    this.machines.set(key, machine);
    return { controller, model, machine: String(machine) };
  }
}

/** The actor a model's commands are recorded under, as the ledger names a consumer key's principal. */
export const actorOf = (consumer: Pick<Consumer, 'controller' | 'model'>): string => `juju:${consumer.controller}/${consumer.model}`;

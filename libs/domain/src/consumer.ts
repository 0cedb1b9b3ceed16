/** Who asks for a machine: a controller's model, and optionally which of its machines. */
export interface Consumer {
  controller: string;
  model: string;
  machine?: string;
  agentName?: string;
  owner?: string;
}

export const sameModel = (a: Pick<Consumer, 'controller' | 'model'>, b: Pick<Consumer, 'controller' | 'model'>): boolean =>
  a.controller === b.controller && a.model === b.model;

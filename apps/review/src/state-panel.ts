import { fill, h, shortToken } from './dom';
import { consumerText, type StateDoc } from './state-doc';

const table = (caption: string, testId: string, headings: string[], rows: HTMLTableRowElement[], empty: string): HTMLElement =>
  rows.length === 0
    ? h('p', { class: 'empty', 'data-testid': `${testId}-empty` }, `${caption}: ${empty}`)
    : h(
        'table',
        { 'data-testid': testId },
        h('caption', {}, caption),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            headings.map((heading) => h('th', { scope: 'col' }, heading)),
          ),
        ),
        h('tbody', {}, rows),
      );

const status = (value: string, testId: string) => h('td', {}, h('span', { class: `status status-${value}`, 'data-testid': testId }, value));

/** The state at the cursor: every value is text, statuses carry a word as well as a pattern. */
export const renderState = (host: HTMLElement, doc: StateDoc, openEvent: (position: number) => void): void => {
  const link = (position: number | undefined) =>
    position ? h('button', { type: 'button', class: 'link', onclick: () => openEvent(position), 'aria-label': `open event ${position}` }, `#${position}`) : '';
  fill(
    host,
    h(
      'p',
      { class: 'state-at', 'data-testid': 'state-at' },
      `As it stood at position ${doc.position} (${doc.at}), folded from ${doc.folded} events of its own history`,
    ),
    doc.address
      ? h(
          'p',
          { 'data-testid': 'address-status' },
          `Address ${doc.address.ip}: `,
          h('span', { class: `status status-${doc.address.status}` }, doc.address.status),
          doc.address.dhcp.heldBy ? ` · DHCP ${doc.address.dhcp.heldBy.source} holds it for ${doc.address.dhcp.heldBy.mac}` : '',
        )
      : '',
    table(
      'Nodes',
      'state-nodes',
      ['node', 'status', 'epoch', 'held by', 'reservation', 'faults', 'maintenance', 'last event'],
      doc.nodes.map((node) =>
        h(
          'tr',
          { 'data-node': node.nodeId },
          h('td', {}, `${node.nodeId} (${node.hostname})`),
          status(node.status, 'node-status'),
          h('td', {}, String(node.epoch)),
          h(
            'td',
            { 'data-testid': 'node-holder' },
            node.allocation ? `${consumerText(node.allocation.consumer)} · ${shortToken(node.allocation.token)}` : 'nobody',
          ),
          h('td', {}, node.reservation ? `${node.reservation.agentName} until ${node.reservation.expiresAt}` : '—'),
          h('td', {}, node.faults.length ? node.faults.map((fault) => `${fault.name}: ${fault.lastError}`).join('; ') : '—'),
          h('td', {}, node.maintenance ? `${node.maintenance.reason} (by ${node.maintenance.by})` : '—'),
          h('td', {}, link(node.lastPosition)),
        ),
      ),
      'none known at this moment',
    ),
    table(
      'Allocations',
      'state-allocations',
      ['token', 'consumer', 'epoch', 'status', 'live', 'current', 'ended', 'last event'],
      doc.allocations.map((allocation) =>
        h(
          'tr',
          { 'data-token': allocation.token },
          h('td', { title: allocation.token }, shortToken(allocation.token)),
          h('td', {}, consumerText(allocation.consumer)),
          h('td', {}, String(allocation.epoch)),
          status(allocation.status, 'allocation-status'),
          h('td', { 'data-testid': 'allocation-live' }, allocation.live ? 'live' : 'ended'),
          h('td', {}, allocation.current ? 'current' : 'not current'),
          h('td', {}, allocation.ending ? `${allocation.ending.kind} at ${allocation.ending.at}` : '—'),
          h('td', {}, link(allocation.lastPosition)),
        ),
      ),
      'none at this moment',
    ),
    table(
      'Devices',
      'state-devices',
      ['device', 'hostname', 'mac', 'allocation', 'removed', 'last event'],
      doc.devices.map((device) =>
        h(
          'tr',
          { 'data-device': device.deviceId },
          h('td', {}, device.deviceId),
          h('td', {}, device.hostname),
          h('td', {}, device.mac),
          h('td', { title: device.token }, shortToken(device.token)),
          h('td', {}, device.removed ? device.removed.reason : '—'),
          h('td', {}, link(device.lastPosition)),
        ),
      ),
      'none at this moment',
    ),
    table(
      'Leases',
      'state-leases',
      ['address', 'mac', 'owner', 'status', 'ended', 'last event'],
      doc.leases.map((lease) =>
        h(
          'tr',
          { 'data-ip': lease.ip, 'data-lease': lease.leaseId },
          h('td', {}, lease.ip),
          h('td', {}, lease.mac),
          h(
            'td',
            { title: lease.owner.token },
            lease.owner.kind === 'device' ? `device ${lease.owner.deviceId}` : `allocation ${shortToken(lease.owner.token)}`,
          ),
          status(lease.status, 'lease-status'),
          h('td', {}, lease.ended ? `${lease.ended.how}${lease.ended.reason ? `: ${lease.ended.reason}` : ''}` : '—'),
          h('td', {}, link(lease.lastPosition)),
        ),
      ),
      'none at this moment',
    ),
  );
};

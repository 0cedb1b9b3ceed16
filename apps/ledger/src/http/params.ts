import { BadRequestException, Injectable, NotFoundException, PipeTransform } from '@nestjs/common';
import { LEDGER_ID, parseToken } from '@ledger/domain';

/** A nodeId from the path; anything malformed cannot name a node. */
@Injectable()
export class NodeIdParam implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!LEDGER_ID.test(value)) throw new BadRequestException({ code: 'invalid_request', message: `nodeId "${value.slice(0, 64)}" is not a valid node id` });
    return value;
  }
}

/** A token from the path: a string that is not a token names no allocation (404). */
@Injectable()
export class TokenParam implements PipeTransform<string, { token: string; nodeId: string }> {
  transform(value: string): { token: string; nodeId: string } {
    const parsed = value.length <= 512 ? parseToken(value) : null;
    if (!parsed) throw new NotFoundException({ code: 'not_found', message: 'no allocation with that token' });
    return { token: value, nodeId: parsed.nodeId };
  }
}

/**
 * The framework's floor: the bench's baseline (baseline-commands.ts: same events, same
 * store, same answers) behind the ledger's HTTP stack, NestJS 11 on fastify, with nothing of
 * the ledger's own: no guards, no validation pipe, no command bus, no read models, no request
 * log, no metrics. The same routes as the ledger's (one controller method per command, the
 * token a route parameter, the body through `@Body()`, a refusal thrown as an HttpException).
 * Beside the bare baseline it splits the ledger's latency into what the framework costs and
 * what the ledger adds on top (profile/interleaved-latency.ts, `--nest-floor`).
 *
 * Usage: node nest-floor-server.js <data-dir>; prints {"port":N} on stdout once listening.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Body, Controller, type DynamicModule, HttpCode, HttpException, Inject, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SqliteEventStore } from '@ledger/event-store';
import { type BaselineAnswer, type BaselineCommands, baselineCommands, type TokenStep } from './baseline-commands';

const COMMANDS = Symbol('baseline commands');

/** The answer's body, or its status and body thrown as the ledger throws a refusal. */
const bodyOf = async (answer: Promise<BaselineAnswer>, expected: number): Promise<unknown> => {
  const { status, body } = await answer;
  if (status !== expected) throw new HttpException(body as Record<string, unknown>, status);
  return body;
};

@Controller('v1')
class FloorController {
  constructor(@Inject(COMMANDS) private readonly commands: BaselineCommands) {}

  @Post('nodes')
  enlist(@Body() body: Record<string, unknown>) {
    return bodyOf(this.commands.enlist(body), 201);
  }

  @Post('allocations')
  acquire(@Body() body: Record<string, unknown>) {
    return bodyOf(this.commands.acquire(body), 201);
  }

  @Post('allocations/:token/deploying')
  @HttpCode(200)
  deploying(@Param('token') token: string) {
    return this.step(token, 'deploying');
  }

  @Post('allocations/:token/deployed')
  @HttpCode(200)
  deployed(@Param('token') token: string) {
    return this.step(token, 'deployed');
  }

  @Post('allocations/:token/release')
  @HttpCode(200)
  release(@Param('token') token: string) {
    return this.step(token, 'release');
  }

  private step(token: string, step: TokenStep) {
    return bodyOf(this.commands.tokenCommand(token, step), 200);
  }
}

@Module({})
class FloorModule {
  static with(commands: BaselineCommands): DynamicModule {
    return { module: FloorModule, controllers: [FloorController], providers: [{ provide: COMMANDS, useValue: commands }] };
  }
}

const main = async (): Promise<void> => {
  const store = await SqliteEventStore.open({ file: join(process.argv[2], 'events.sqlite'), synchronous: 'FULL' });
  const app = await NestFactory.create<NestFastifyApplication>(FloorModule.with(baselineCommands(store)), new FastifyAdapter({ keepAliveTimeout: 60_000 }), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => store.close().then(() => process.exit(0))));
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

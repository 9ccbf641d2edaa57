// Local servers for development and tests: node infra/cli.ts install|start|stop [names]|status
// (wrapped by `npm run infra -- <command>`). Prints endpoints as KEY=value lines on start.
import { installLocalServers, localServerStatus, optionsFromEnv, startLocalServers, stopLocalServers } from './localServers.ts';

const log = (line: string): void => void process.stderr.write(`› ${line}\n`);

async function main(command: string | undefined): Promise<void> {
  const opts = optionsFromEnv(process.env, log);
  switch (command) {
    case 'install':
      await installLocalServers(opts);
      log('installed (cached in .tools/)');
      return;
    case 'start': {
      const started = Date.now();
      const endpoints = await startLocalServers(opts);
      const what = [endpoints.started.kafka && 'Kafka', endpoints.started.mongo && 'SecantusDB', endpoints.started.redis && 'Redis'].filter(
        Boolean,
      );
      log(
        what.length ? `started ${what.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)}s` : 'already running; nothing started',
      );
      process.stdout.write(`KAFKA_BROKERS=${endpoints.kafkaBrokers}\nMONGO_URL=${endpoints.mongoUrl}\n`);
      // What this call started, so that `npm start` stops exactly that when it ends.
      process.stdout.write(
        `LOCAL_SERVERS_STARTED=${Object.entries(endpoints.started)
          .filter(([, yes]) => yes)
          .map(([name]) => name)
          .join(',')}\n`,
      );
      // Quoted: start.sh evals these lines, and an external URL may carry a password with shell characters.
      process.stdout.write(`REDIS_URL='${endpoints.redisUrl.replaceAll("'", "'\\''")}'\n`);
      return;
    }
    case 'stop': {
      // `stop` ends all three; `stop kafka,mongo` only those named (what a `start` reported starting).
      const named = process.argv[3]?.split(',').filter(Boolean);
      const stopped = await stopLocalServers(
        named ? { kafka: named.includes('kafka'), mongo: named.includes('mongo'), redis: named.includes('redis') } : undefined,
      );
      log(
        `stopped: kafka ${stopped.kafka ? 'yes' : 'was not running'}, secantusdb ${stopped.mongo ? 'yes' : 'was not running'}, redis ${stopped.redis ? 'yes' : 'was not running'}`,
      );
      return;
    }
    case 'status':
      for (const line of await localServerStatus(opts)) process.stdout.write(`${line}\n`);
      return;
    default:
      process.stderr.write('usage: node infra/cli.ts install|start|stop [kafka,mongo,redis]|status\n');
      process.exitCode = 2;
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`infra: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});

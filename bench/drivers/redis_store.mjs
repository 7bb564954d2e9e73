// The Redis a bench target keeps its 2025 sessions in, started the way the end-to-end tests start
// theirs (tests/e2e/cluster.mjs, tests/e2e/redis_cluster.mjs): `single`, one redis-server; or
// `cluster`, three masters without replicas made a Redis Cluster by redis-cli. Prints one line,
// BENCH_REDIS {"url", "ports", "password"} (the --store URL, every server's port, their password),
// then keeps them up until SIGTERM or SIGINT, and stops them. bench/run.sh runs it on the load core.
//   node bench/drivers/redis_store.mjs single|cluster
import { RedisServer } from '../../tests/e2e/cluster.mjs';
import { RedisClusterGroup } from '../../tests/e2e/redis_cluster.mjs';

const kind = process.argv[2];
if (kind !== 'single' && kind !== 'cluster') throw new Error('usage: redis_store.mjs single|cluster');

let store;
let info;
if (kind === 'single') {
    store = await RedisServer.start();
    info = { url: store.url, ports: [store.port], password: '' };
} else {
    store = await RedisClusterGroup.start({ replicas: 0 });
    info = { url: store.url(), ports: store.servers.map((s) => s.port), password: store.password };
}
console.log(`BENCH_REDIS ${JSON.stringify(info)}`);

let stopping = false;
const stop = async () => {
    if (stopping) return;
    stopping = true;
    await store.close();
    process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 1 << 30);  // stay up until told to stop

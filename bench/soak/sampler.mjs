// What the soak samples: a server process's resident memory, threads and open file descriptors
// (from /proc), and a Redis server's key count and memory (DBSIZE, INFO memory).
import { readdirSync, readFileSync } from 'node:fs';

// { rss_kb, threads, fds } of a running process; nothing once it is gone.
export function processSample(pid) {
    try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
        return { rss_kb: field('VmRSS'), threads: field('Threads'), fds: readdirSync(`/proc/${pid}/fd`).length };
    } catch {
        return undefined;
    }
}

// { redis_keys, redis_memory_kb } of a RedisServer (tests/e2e/cluster.mjs).
export async function redisSample(redis) {
    const [keys, info] = await Promise.all([redis.dbsize(), redis.command('INFO', 'memory')]);
    const used = Number(/used_memory:(\d+)/.exec(info)?.[1]);
    return { redis_keys: keys, redis_memory_kb: Math.round(used / 1024) };
}

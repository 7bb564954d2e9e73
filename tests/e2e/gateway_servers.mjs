// The npm servers the gateway suites put behind mcp-cpp-gateway, and the servers file naming them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packages = join(fileURLToPath(new URL('.', import.meta.url)), 'node_modules', '@modelcontextprotocol');

// The children's processes, found by the scratch directory their command lines name.
export function childPids(scratch, name) {
    const pids = [];
    for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
            const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
            if (cmdline.includes(join(scratch, name))) pids.push(Number(entry));
        } catch {
            // gone meanwhile
        }
    }
    return pids;
}

// The scratch directory: a file for server-filesystem, server-memory's graph, and one small script
// per server that runs the npm package's own entry point, so that each child's command line names
// this directory (and a test never kills another suite's server-everything). Returns the servers
// file: server-everything, server-memory, server-filesystem (the scratch directory its root) and a
// server that cannot start.
export function writeServers(scratch) {
    writeFileSync(join(scratch, 'hello.txt'), 'hello through the gateway\n');
    const scripts = {
        everything: 'server-everything/dist/index.js',
        memory: 'server-memory/dist/index.js',
        filesystem: 'server-filesystem/dist/index.js',
    };
    for (const [name, entry] of Object.entries(scripts)) {
        writeFileSync(join(scratch, `${name}.mjs`), `import ${JSON.stringify(join(packages, entry))};\n`);
    }
    const config = {
        mcpServers: {
            everything: { command: process.execPath, args: [join(scratch, 'everything.mjs'), 'stdio'] },
            memory: { command: process.execPath, args: [join(scratch, 'memory.mjs')], env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } },
            filesystem: { command: process.execPath, args: [join(scratch, 'filesystem.mjs'), scratch] },
            // A server that cannot start: it must not hold the gateway or the others back.
            broken: { command: join(scratch, 'no-such-server') },
        },
    };
    const file = join(scratch, 'servers.json');
    writeFileSync(file, `// a host's configuration, comments and all\n${JSON.stringify(config, null, 2)}\n`);
    return file;
}

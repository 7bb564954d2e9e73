// The TypeScript side of bench/run.sh's client suite: the @modelcontextprotocol/sdk 1.32.2 Client
// (the 2025-11-25 wire), or with --sdk v2 the @modelcontextprotocol/client 2.4.0 Client pinned to
// --pin (2026-07-28 by default), calling the demo's echo tool with a fixed number of calls in
// flight, over Streamable HTTP or stdio. It prints what bench/client/client_driver.cpp prints, one line per phase (0: the warm-up):
//
//   BENCH_RESULT {"phase":1,"calls":N,"ok":N,"failures":0,"duration_us":D,"client_cpu_us":C,"server_cpu_us":S}
//
// client_cpu_us is process.cpuUsage() of this process (every thread of Node's); server_cpu_us is
// utime + stime of the server from /proc (--server-pid, or the stdio transport's child). Every
// reply is checked: the one text block equal to what was sent, no isError.
//
//   node client-ts.mjs [options] --url http://127.0.0.1:PORT/mcp --server-pid PID
//   node client-ts.mjs [options] -- COMMAND ARGS...
//   options: --inflight N (32)  --warmup S (1)  --seconds S (10)  --reps N (3)  --sdk v1|v2 (v1)
//            --pin VERSION (v2 only; 2026-07-28); the text is $BENCH_TEXT
import { readFileSync } from 'node:fs';

// The SDK's Client and its two transports, loaded for the SDK asked for.
async function sdk(version) {
    if (version === 'v1') {
        const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
            import('@modelcontextprotocol/sdk/client/index.js'),
            import('@modelcontextprotocol/sdk/client/stdio.js'),
            import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
        ]);
        return { Client, StdioClientTransport, StreamableHTTPClientTransport };
    }
    const [{ Client, StreamableHTTPClientTransport }, { StdioClientTransport }] = await Promise.all([
        import('@modelcontextprotocol/client'),
        import('@modelcontextprotocol/client/stdio'),
    ]);
    return { Client, StdioClientTransport, StreamableHTTPClientTransport };
}

function parse(argv) {
    const a = { inflight: 32, warmup: 1, seconds: 10, reps: 3, sdk: 'v1', pin: '2026-07-28', command: [] };
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === '--') {
            a.command = argv.slice(i + 1);
            break;
        }
        const value = argv[++i];
        if (value === undefined) throw new Error(`${arg} needs a value`);
        if (arg === '--url') a.url = value;
        else if (arg === '--server-pid') a.serverPid = Number(value);
        else if (['--inflight', '--warmup', '--seconds', '--reps'].includes(arg)) a[arg.slice(2)] = Number(value);
        else if (arg === '--sdk' && ['v1', 'v2'].includes(value)) a.sdk = value;
        else if (arg === '--pin') a.pin = value;
        else throw new Error(`unknown option ${arg}`);
    }
    if (!a.url === (a.command.length === 0)) throw new Error('give --url or a command after --');
    return a;
}

const clockTick = 100; // USER_HZ: what /proc/<pid>/stat counts in on Linux
function processCpuUs(pid) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTick; // utime, stime: fields 14, 15
}

function clientCpuUs() {
    const { user, system } = process.cpuUsage();
    return user + system;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
    const a = parse(process.argv.slice(2));
    const text = process.env.BENCH_TEXT ?? 'mcp-cpp-bench-client';
    const { Client, StdioClientTransport, StreamableHTTPClientTransport } = await sdk(a.sdk);
    const transport = a.url
        ? new StreamableHTTPClientTransport(new URL(a.url))
        : new StdioClientTransport({ command: a.command[0], args: a.command.slice(1), stderr: 'inherit' });
    const client = a.sdk === 'v1'
        ? new Client({ name: 'bench-client-ts', version: '1.32.2' })
        : new Client({ name: 'bench-client-ts', version: '2.4.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: a.pin } } });
    await client.connect(transport);
    const server = a.url ? a.serverPid : transport.pid;
    console.error(`connected: ${client.getServerVersion()?.name}, server pid ${server}`);

    let ok = 0;
    let failures = 0;
    let firstError;
    let stopping = false;
    const chain = async () => {
        while (!stopping) {
            try {
                const result = await client.callTool({ name: 'echo', arguments: { text } });
                const content = result.content ?? [];
                if (result.isError || content.length !== 1 || content[0].text !== text) throw new Error('a wrong reply');
                ok++;
            } catch (error) {
                failures++;
                firstError ??= String(error);
            }
        }
    };
    const chains = Array.from({ length: a.inflight }, chain);
    for (let phase = 0; phase <= a.reps; phase++) {
        const seconds = phase === 0 ? a.warmup : a.seconds;
        const [ok0, failed0, client0, server0] = [ok, failures, clientCpuUs(), processCpuUs(server)];
        const start = process.hrtime.bigint();
        await sleep(seconds * 1000);
        const duration = Number((process.hrtime.bigint() - start) / 1000n);
        const line = {
            phase, calls: ok - ok0 + failures - failed0, ok: ok - ok0, failures: failures - failed0, duration_us: duration,
            client_cpu_us: Math.round(clientCpuUs() - client0), server_cpu_us: Math.round(processCpuUs(server) - server0),
            protocol: transport.protocolVersion ?? client.getNegotiatedProtocolVersion?.() ?? '2025-11-25',
        };
        console.log(`BENCH_RESULT ${JSON.stringify(line)}`);
    }
    stopping = true;
    await Promise.all(chains);
    await client.close();
    if (failures > 0) {
        console.error(`${failures} calls failed; the first: ${firstError}`);
        process.exitCode = 1;
    }
}

main().catch((error) => {
    console.error(`client-ts: ${error.stack ?? error}`);
    console.log(`BENCH_RESULT ${JSON.stringify({ error: String(error) })}`);
    process.exitCode = 1;
});

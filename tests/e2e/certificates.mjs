// Throwaway certificates from the openssl command, in a directory of the test's: a CA, and
// certificates it signs for 127.0.0.1 (server) or for a client.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function certificateMaker(dir) {
    const file = (name) => join(dir, name);
    const openssl = (...args) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    return {
        makeCa(name) {
            openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2',
                '-subj', `/CN=${name}`, '-keyout', file(`${name}.key`), '-out', file(`${name}.pem`));
            return name;
        },
        // usage: serverAuth or clientAuth.
        makeCert(ca, name, usage) {
            writeFileSync(file(`${name}.ext`), `subjectAltName=IP:127.0.0.1\nextendedKeyUsage=${usage}\n`);
            openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', `/CN=${name}`,
                '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`));
            openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file(`${ca}.pem`), '-CAkey', file(`${ca}.key`),
                '-CAcreateserial', '-days', '2', '-extfile', file(`${name}.ext`), '-out', file(`${name}.pem`));
            return { cert: file(`${name}.pem`), key: file(`${name}.key`) };
        },
    };
}

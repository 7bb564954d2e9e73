// Preloaded with `node --import` into a server nobody here wrote (an npm package, an SDK example),
// so that a test can run it anywhere: whatever port and host it asks for, it listens on a free
// port of 127.0.0.1, and says which on stderr as `listening on 127.0.0.1:<port>`.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
    const callback = args.find((a) => typeof a === 'function');
    this.once('listening', () => process.stderr.write(`listening on 127.0.0.1:${this.address().port}\n`));
    return callback ? listen.call(this, 0, '127.0.0.1', callback) : listen.call(this, 0, '127.0.0.1');
};

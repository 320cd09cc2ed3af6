// Preloaded (node --require) into a tool the tests run, to prove it reaches no network: every
// outgoing connection and name lookup is refused and written, one line each, to the file named by
// NO_NETWORK_LOG. Loopback and Unix sockets (a tool's own worker pipes) are let through.
const fs = require("node:fs");
const net = require("node:net");
const dns = require("node:dns");

const logFile = process.env.NO_NETWORK_LOG;
const record = (what) => {
  if (logFile) fs.appendFileSync(logFile, `${process.pid} ${what}\n`);
};
const isLocal = (host) => !host || host === "localhost" || host === "::1" || /^127\./.test(host);

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = typeof args[0] === "object" && args[0] !== null ? (Array.isArray(args[0]) ? args[0][0] : args[0]) : { port: args[0], host: args[1] };
  if (options && options.path == null && !isLocal(options.host)) {
    record(`connect ${options.host}:${options.port}`);
    const error = Object.assign(new Error(`no network in this test (connect ${options.host}:${options.port})`), { code: "ENETUNREACH" });
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};

const refuseLookup = (original) =>
  function (hostname, ...rest) {
    if (isLocal(hostname)) return original.call(this, hostname, ...rest);
    record(`lookup ${hostname}`);
    const callback = rest.find((a) => typeof a === "function");
    const error = Object.assign(new Error(`no network in this test (lookup ${hostname})`), { code: "ENOTFOUND" });
    if (callback) process.nextTick(() => callback(error));
    else return Promise.reject(error);
  };
dns.lookup = refuseLookup(dns.lookup);
dns.promises.lookup = refuseLookup(dns.promises.lookup);

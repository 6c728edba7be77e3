// Preloaded (node --import) into third-party servers started by tests, so they listen on
// 127.0.0.1 only even when they would bind every interface (server-everything's HTTP modes).
import net from "node:net";
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\d+$/.test(args[0]))) {
    const port = Number(args[0]);
    const rest = args.slice(1).filter((a) => typeof a === "function");
    return listen.call(this, port, "127.0.0.1", ...rest);
  }
  if (typeof args[0] === "object" && args[0] !== null && !("path" in args[0]))
    args[0] = { ...args[0], host: "127.0.0.1" };
  return listen.apply(this, args);
};

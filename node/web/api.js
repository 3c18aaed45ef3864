// A client of the node's documented WebSocket API (spec/client-api.md): requests by id, events pushed.
export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class Api {
  constructor() {
    this.nextId = 1;
    this.waiting = new Map();
    this.listeners = [];
    this.closeListeners = [];
    this.hello = null;
  }

  open(url) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      this.socket = socket;
      socket.onmessage = (message) => {
        const value = JSON.parse(message.data);
        if (this.hello === null) {
          this.hello = value;
          resolve(value);
        } else if (typeof value.id === "number" && this.waiting.has(value.id)) {
          const { done, fail } = this.waiting.get(value.id);
          this.waiting.delete(value.id);
          if (value.ok) done(value); else fail(new ApiError(value.code, value.error));
        } else if (value.event) {
          for (const listener of this.listeners) listener(value);
        }
      };
      socket.onclose = (event) => {
        const why = `the node closed the connection (${event.code}${event.reason ? " " + event.reason : ""})`;
        for (const { fail } of this.waiting.values()) fail(new ApiError("closed", why));
        this.waiting.clear();
        if (this.hello === null) reject(new ApiError("closed", "cannot reach the node: is it running with --api-port?"));
        for (const listener of this.closeListeners) listener(event);
      };
    });
  }

  request(op, fields = {}) {
    const id = this.nextId++;
    return new Promise((done, fail) => {
      if (this.socket.readyState !== WebSocket.OPEN) {
        fail(new ApiError("closed", "not connected to the node"));
        return;
      }
      this.waiting.set(id, { done, fail });
      this.socket.send(JSON.stringify({ id, op, ...fields }));
    });
  }

  onEvent(listener) { this.listeners.push(listener); }
  onClose(listener) { this.closeListeners.push(listener); }
  close() { this.closeListeners = []; this.socket.close(); }
}

// The one-time login code of a link "http://127.0.0.1:PORT/#login=CODE", taken out of the address at once.
export function takeLoginCode() {
  const match = location.hash.match(/^#login=([A-Za-z0-9_-]+)$/);
  if (!match) return null;
  history.replaceState(null, "", location.pathname + "#/");
  return match[1];
}

// Exchange a login code for the token (POST /login); the token never appears in an address.
export async function exchange(code) {
  const response = await fetch("/login", { method: "POST", body: code, headers: { "content-type": "text/plain" } });
  const value = await response.json();
  if (!response.ok) throw new ApiError("unauthorized", value.error);
  return value.token;
}

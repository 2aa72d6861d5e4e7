// The Jupyter side of rummylab's lesson page: the kernel's websocket, and the widget models
// kept in step with the kernel's (the jupyter.widget comms of ipywidgets' protocol 2).

const REF = "IPY_MODEL_";
const CONTROL_PROTOCOL = "1.0.0";  // ipywidgets' jupyter.widget.control comm
const WIDGET_PROTOCOL = "2.1.0";
const OUTPUTS = new Set(["stream", "display_data", "execute_result", "error", "clear_output"]);
const RETRIES = [500, 1000, 2000, 4000, 8000];  // ms before each reconnection attempt

// -- the kernel connection ----------------------------------------------------------------

function uuid() {
  return crypto.randomUUID ? crypto.randomUUID().replace(/-/g, "")
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// Messages go as jupyter_server's "v1.kernel.websocket.jupyter.org" frames: Voilà's websocket
// handler reads the header of every binary frame as this protocol's, and loops on the older one's.
const PROTOCOL = "v1.kernel.websocket.jupyter.org";
const MESSAGE_PARTS = ["header", "parent_header", "metadata", "content"];

/** A Jupyter message out of a frame: 8-byte offsets, then the channel, the four JSON parts and buffers. */
function decode(data) {
  const view = new DataView(data);
  const count = Number(view.getBigUint64(0, true));
  const offsets = Array.from({ length: count }, (_, i) => Number(view.getBigUint64(8 * (i + 1), true)));
  const part = (i) => data.slice(offsets[i], offsets[i + 1]);
  const text = (i) => new TextDecoder().decode(part(i));
  const msg = { channel: text(0), buffers: [] };
  MESSAGE_PARTS.forEach((key, i) => { msg[key] = JSON.parse(text(i + 1)); });
  for (let i = MESSAGE_PARTS.length + 1; i < count - 1; i++) msg.buffers.push(new DataView(part(i)));
  return msg;
}

/** The frame of ``msg`` on ``channel`` with ``buffers`` (the inverse of decode). */
function encode(msg, channel, buffers) {
  const utf8 = new TextEncoder();
  const parts = [utf8.encode(channel), ...MESSAGE_PARTS.map((key) => utf8.encode(JSON.stringify(msg[key]))),
    ...buffers.map((b) => new Uint8Array(b.buffer ?? b, b.byteOffset ?? 0, b.byteLength))];
  const count = parts.length + 1, head = 8 * (count + 1);
  const out = new Uint8Array(head + parts.reduce((n, p) => n + p.byteLength, 0));
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(count), true);
  let at = head;
  parts.forEach((p, i) => { view.setBigUint64(8 * (i + 1), BigInt(at), true); out.set(p, at); at += p.byteLength; });
  view.setBigUint64(8 * count, BigInt(at), true);
  return out.buffer;
}

class Kernel {
  constructor(baseUrl, kernelId) {
    this.session = uuid();
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${baseUrl}api/kernels/${kernelId}/channels?session_id=${this.session}`;
    this.handlers = new Map();  // comm id -> function(msg)
    this.onCommOpen = () => {};
    this.onOutput = () => false;  // true when an Output widget took the output
    this.onState = () => {};  // "lost" (reconnecting), "back", "gone" (the kernel stopped)
    this.gone = false;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url, PROTOCOL);
      ws.binaryType = "arraybuffer";
      let opened = false;
      ws.onopen = () => { opened = true; this.ws = ws; resolve(); };
      ws.onerror = () => { if (!opened) reject(new Error("the lesson's kernel could not be reached")); };
      ws.onclose = () => { if (opened && this.ws === ws) this.dropped(); };
      ws.onmessage = (event) => this.receive(decode(event.data));
    });
  }

  /** The websocket closed: say so at once, and try again a few times. */
  async dropped() {
    if (this.gone) return;
    this.onState("lost");
    for (const wait of RETRIES) {
      await new Promise((r) => setTimeout(r, wait));
      if (this.gone) return;
      try {
        await this.connect();
        this.onState("back");
        return;
      } catch { /* not yet: wait longer */ }
    }
    this.stopped();
  }

  stopped() {
    if (this.gone) return;
    this.gone = true;
    this.onState("gone");
    this.ws?.close();
  }

  receive(msg) {
    if (msg.channel !== "iopub") return;
    const type = msg.header.msg_type, content = msg.content;
    if (type === "comm_open") this.onCommOpen(content, msg.buffers || []);
    else if (type === "comm_msg" || type === "comm_close") {
      const handler = this.handlers.get(content.comm_id);
      if (handler) handler(type, content.data || {}, msg.buffers || []);
    } else if (type === "status" && ["restarting", "autorestarting", "dead"].includes(content.execution_state)) {
      this.stopped();  // a restarted kernel has none of the lesson: only a fresh copy helps
    } else if (OUTPUTS.has(type)) {
      if (!this.onOutput(msg) && type === "stream" && content.name === "stderr") console.warn(content.text);
    }
  }

  send(msgType, content, { buffers = [], metadata = {} } = {}) {
    if (this.gone || this.ws?.readyState !== WebSocket.OPEN) return false;
    const header = { msg_id: uuid(), msg_type: msgType, session: this.session, username: "",
      date: new Date().toISOString(), version: "5.3" };
    this.ws.send(encode({ header, parent_header: {}, metadata, content }, "shell", buffers));
    return true;
  }

  comm(commId, data, buffers = []) {
    return this.send("comm_msg", { comm_id: commId, data }, { buffers });
  }
}

// -- models -------------------------------------------------------------------------------

/** Put binary buffers back at their places in a widget state. */
function withBuffers(state, paths = [], buffers = []) {
  paths.forEach((path, i) => {
    let obj = state;
    for (const key of path.slice(0, -1)) obj = obj[key];
    obj[path[path.length - 1]] = buffers[i];
  });
  return state;
}

/** A state to send: binary values taken out as buffers, with their paths (the inverse of withBuffers). */
function splitBuffers(state) {
  const paths = [], buffers = [];
  const walk = (value, path) => {
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      paths.push(path);
      buffers.push(value);
      return null;
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, i]));
    if (value && typeof value === "object" && value.constructor === Object) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
    }
    return value;
  };
  return { state: walk(state, []), paths, buffers };
}

class Model {
  constructor(manager, id, name, state) {
    this.manager = manager;
    this.id = id;
    this.name = name;
    this.state = state;
    this.listeners = new Map();  // event -> Set of callbacks
    this.changed = {};
    this.unsaved = {};
    this.widget_manager = { get_model: (modelId) => manager.model(modelId) };
  }

  get(key) { return this.state[key]; }

  /** Change state here (and tell the views); ``save_changes`` sends it to the kernel. */
  set(key, value) {
    if (typeof key === "object") { for (const [k, v] of Object.entries(key)) this.set(k, v); return; }
    this.unsaved[key] = value;
    this.update({ [key]: value });
  }

  save_changes() {
    const state = this.unsaved;
    this.unsaved = {};
    if (Object.keys(state).length) this.sync(state);
  }

  /** Set and send at once (what a control does when a student uses it). */
  save(state) {
    this.update(state);
    this.sync(state);
  }

  sync(state) {
    const { state: plain, paths, buffers } = splitBuffers(state);
    this.manager.kernel.comm(this.id, { method: "update", state: plain, buffer_paths: paths }, buffers);
  }

  send(content, callbacks, buffers = []) {
    this.manager.kernel.comm(this.id, { method: "custom", content }, buffers);
  }

  update(state) {
    Object.assign(this.state, state);
    this.changed = state;
    for (const [key, value] of Object.entries(state)) this.emit(`change:${key}`, this, value);
    this.emit("change", this);
    this.changed = {};
  }

  on(event, callback) {
    for (const name of event.split(/\s+/)) {
      if (!this.listeners.has(name)) this.listeners.set(name, new Set());
      this.listeners.get(name).add(callback);
    }
  }

  off(event, callback) {
    for (const name of event ? event.split(/\s+/) : [...this.listeners.keys()]) {
      if (callback) this.listeners.get(name)?.delete(callback);
      else this.listeners.delete(name);
    }
  }

  emit(event, ...args) {
    for (const callback of [...(this.listeners.get(event) || [])]) {
      try { callback(...args); } catch (err) { console.error(err); }
    }
  }

  /** A message from the kernel on this model's comm. */
  received(type, data, buffers) {
    if (type === "comm_close") { this.manager.forget(this); return; }
    if (data.method === "update") this.update(withBuffers(data.state, data.buffer_paths, buffers));
    else if (data.method === "custom") this.emit("msg:custom", data.content, buffers);
    // echo_update repeats what this page sent: its one front end already shows it
  }
}

/** jslink / jsdlink: ``[model ref, key]`` pairs kept equal in the page, without the kernel. */
function link(manager, model, both) {
  const pairs = ["source", "target"].map((k) => model.get(k));
  let undo = [];
  Promise.all(pairs.map(([ref]) => manager.model(ref))).then(([source, target]) => {
    const copy = (from, fromKey, to, toKey) => {
      const sync = () => {
        if (to.get(toKey) === from.get(fromKey)) return;
        to.set(toKey, from.get(fromKey));
        to.save_changes();
      };
      from.on(`change:${fromKey}`, sync);
      undo.push(() => from.off(`change:${fromKey}`, sync));
      return sync;
    };
    copy(source, pairs[0][1], target, pairs[1][1])();
    if (both) copy(target, pairs[1][1], source, pairs[0][1]);
  });
  model.on("comm:close", () => { undo.forEach((off) => off()); undo = []; });
}

const LINKS = {
  LinkModel(manager, model) { link(manager, model, true); },
  DirectionalLinkModel(manager, model) { link(manager, model, false); },
};

class Manager {
  constructor(kernel) {
    this.kernel = kernel;
    this.models = new Map();  // model id -> {promise, resolve, model}
    this.initialized = new Set();  // anywidgets whose initialize() has run
    this.onModel = () => {};  // each new model, as it comes
    kernel.onCommOpen = (content, buffers) => {
      if (content.target_name !== "jupyter.widget") return;
      const data = content.data;
      this.add(content.comm_id, withBuffers(data.state, data.buffer_paths, buffers));
    };
    this.capturing = new Set();  // Output widgets
    kernel.onOutput = (msg) => {
      const parent = msg.parent_header?.msg_id;
      const model = parent && [...this.capturing].find((m) => m.get("msg_id") === parent);
      if (model) model.emit("output", msg);
      return Boolean(model);
    };
  }

  /** How many widget models the page holds (the kernel's, less those it has closed). */
  get size() {
    let n = 0;
    for (const entry of this.models.values()) n += entry.model ? 1 : 0;
    return n;
  }

  entry(id) {
    if (!this.models.has(id)) {
      let resolve;
      const promise = new Promise((r) => { resolve = r; });
      this.models.set(id, { promise, resolve });
    }
    return this.models.get(id);
  }

  add(id, state) {
    const known = this.models.get(id)?.model;
    if (known) { known.update(state); return known; }  // states asked for again after a reconnection
    const model = new Model(this, id, state._model_name, state);
    this.kernel.handlers.set(id, (type, data, buffers) => model.received(type, data, buffers));
    const entry = this.entry(id);
    entry.model = model;
    entry.resolve(model);
    LINKS[model.name]?.(this, model);
    this.onModel(model);
    return model;
  }

  /** The kernel closed a model: its views go, and the page lets go of it. */
  forget(model) {
    model.emit("comm:close");
    model.off();
    this.models.delete(model.id);
    this.kernel.handlers.delete(model.id);
    this.capturing.delete(model);
    this.initialized.delete(model.id);
  }

  /** The model with this id (or ``IPY_MODEL_`` reference), once the kernel has told of it. */
  model(id) {
    return this.entry(String(id).replace(REF, "")).promise;
  }

  /** A core model made here (a game controller's buttons and axes): the kernel makes its twin. */
  create(name, view, state) {
    const id = uuid();
    const full = { _model_module: "@jupyter-widgets/controls", _model_module_version: "2.0.0",
      _model_name: name, _view_module: "@jupyter-widgets/controls", _view_module_version: "2.0.0",
      _view_name: view, ...state };
    this.kernel.send("comm_open", { comm_id: id, target_name: "jupyter.widget",
      data: { state: full, buffer_paths: [] } }, { metadata: { version: WIDGET_PROTOCOL } });
    return this.add(id, full);
  }

  /** Every widget the kernel holds, as the lesson left them. */
  async loadAll() {
    const commId = uuid();
    const reply = new Promise((resolve) => {
      this.kernel.handlers.set(commId, (type, data, buffers) => {
        if (data.method === "update_states") resolve({ data, buffers });
      });
    });
    this.kernel.send("comm_open", { comm_id: commId, target_name: "jupyter.widget.control", data: {} },
                     { metadata: { version: CONTROL_PROTOCOL } });
    this.kernel.comm(commId, { method: "request_states" });
    const { data, buffers } = await reply;
    this.kernel.handlers.delete(commId);
    this.kernel.send("comm_close", { comm_id: commId, data: {} });
    const states = withBuffers(data.states, data.buffer_paths, buffers);
    for (const [id, entry] of Object.entries(states)) this.add(id, entry.state);
  }
}

export { Kernel, Manager };

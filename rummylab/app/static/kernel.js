// The Jupyter side of rummylab's lesson page: the kernel's websocket, and the widget models
// kept in step with the kernel's (the jupyter.widget comms of ipywidgets' protocol 2).

const REF = "IPY_MODEL_";
const CONTROL_PROTOCOL = "1.0.0";  // ipywidgets' jupyter.widget.control comm
const OUTPUTS = new Set(["stream", "display_data", "execute_result", "error", "clear_output"]);

// -- the kernel connection ----------------------------------------------------------------

function uuid() {
  return crypto.randomUUID ? crypto.randomUUID().replace(/-/g, "")
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A Jupyter message out of a websocket frame: JSON text, or the binary form with buffers. */
function decode(data) {
  if (typeof data === "string") return JSON.parse(data);
  const view = new DataView(data);
  const parts = view.getUint32(0);
  const offsets = [];
  for (let i = 0; i < parts; i++) offsets.push(view.getUint32(4 * (i + 1)));
  offsets.push(data.byteLength);
  const msg = JSON.parse(new TextDecoder().decode(data.slice(offsets[0], offsets[1])));
  msg.buffers = offsets.slice(1, -1).map((start, i) => new DataView(data.slice(start, offsets[i + 2])));
  return msg;
}

class Kernel {
  constructor(baseUrl, kernelId) {
    this.session = uuid();
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${baseUrl}api/kernels/${kernelId}/channels?session_id=${this.session}`;
    this.handlers = new Map();  // comm id -> function(msg)
    this.onCommOpen = () => {};
    this.onOutput = () => false;  // true when an Output widget took the output
    this.onClose = () => {};
  }

  connect() {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(this.url);
      this.ws.binaryType = "arraybuffer";
      this.ws.onopen = () => resolve();
      this.ws.onerror = () => reject(new Error("the lesson's kernel could not be reached"));
      this.ws.onclose = () => this.onClose();
      this.ws.onmessage = (event) => this.receive(decode(event.data));
    });
  }

  receive(msg) {
    if (msg.channel !== "iopub") return;
    const type = msg.header.msg_type, content = msg.content;
    if (type === "comm_open") this.onCommOpen(content, msg.buffers || []);
    else if (type === "comm_msg" || type === "comm_close") {
      const handler = this.handlers.get(content.comm_id);
      if (handler) handler(type, content.data || {}, msg.buffers || []);
    } else if (OUTPUTS.has(type)) {
      if (!this.onOutput(msg) && type === "stream" && content.name === "stderr") console.warn(content.text);
    }
  }

  send(msgType, content, { buffers = [], metadata = {} } = {}) {
    const msg = {
      header: { msg_id: uuid(), msg_type: msgType, session: this.session, username: "",
                date: new Date().toISOString(), version: "5.3" },
      parent_header: {}, metadata, content, channel: "shell", buffers: [],
    };
    if (buffers.length) console.warn("rummylab: binary buffers are not sent");
    this.ws.send(JSON.stringify(msg));
  }

  comm(commId, data) {
    this.send("comm_msg", { comm_id: commId, data });
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
    this.manager.kernel.comm(this.id, { method: "update", state, buffer_paths: [] });
  }

  send(content, callbacks, buffers = []) {
    this.manager.kernel.send("comm_msg", { comm_id: this.id, data: { method: "custom", content } }, { buffers });
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
    if (type === "comm_close") { this.emit("comm:close"); return; }
    if (data.method === "update") this.update(withBuffers(data.state, data.buffer_paths, buffers));
    else if (data.method === "custom") this.emit("msg:custom", data.content, buffers);
    // echo_update repeats what this page sent: its one front end already shows it
  }
}

class Manager {
  constructor(kernel) {
    this.kernel = kernel;
    this.models = new Map();  // model id -> {promise, resolve}
    this.initialized = new Set();  // anywidgets whose initialize() has run
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

  entry(id) {
    if (!this.models.has(id)) {
      let resolve;
      const promise = new Promise((r) => { resolve = r; });
      this.models.set(id, { promise, resolve });
    }
    return this.models.get(id);
  }

  add(id, state) {
    const model = new Model(this, id, state._model_name, state);
    this.kernel.handlers.set(id, (type, data, buffers) => model.received(type, data, buffers));
    this.entry(id).resolve(model);
    return model;
  }

  /** The model with this id (or ``IPY_MODEL_`` reference), once the kernel has told of it. */
  model(id) {
    return this.entry(String(id).replace(REF, "")).promise;
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
    const states = withBuffers(data.states, data.buffer_paths, buffers);
    for (const [id, entry] of Object.entries(states)) this.add(id, entry.state);
  }
}

export { Kernel, Manager };

// rummylab's lesson page: the lesson's widgets, live from its kernel, drawn with plain DOM.
//
// Voilà's own page loads JupyterLab's 5 MB of JavaScript; on a laptop that also runs the
// browsers of a class, that is most of the work. This page talks the Jupyter widget protocol
// over the kernel's websocket itself (kernel.js) and draws the widgets the lessons use (boxes,
// buttons, text, HTML, labels, checkboxes, toggles, dropdowns, sliders, Output widgets and
// anywidgets such as Altair's JupyterChart). A widget it does not know is named on the page.

import { Kernel, Manager } from "./kernel.js";

const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";

// -- views --------------------------------------------------------------------------------

function h(tag, className = "", text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A widget state key -> the CSS property it sets (``flex_flow`` -> ``flex-flow``). */
function cssOf(...keys) {
  return Object.fromEntries(keys.map((key) => [key, key.replace(/_/g, "-")]));
}

const LAYOUT = cssOf("align_content", "align_items", "align_self", "border_top", "border_right", "border_bottom",
  "border_left", "bottom", "display", "flex", "flex_flow", "grid_area", "grid_auto_columns", "grid_auto_flow",
  "grid_auto_rows", "grid_gap", "grid_template_areas", "grid_template_columns", "grid_template_rows", "height",
  "justify_content", "justify_items", "left", "margin", "max_height", "max_width", "min_height", "min_width",
  "object_fit", "object_position", "order", "overflow", "padding", "right", "top", "visibility", "width");

/** A widget drawn in ``el``: keeps it up to date and lets go of the model when removed. */
class View {
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.subscriptions = [];
    this.children = [];
  }

  listen(model, event, callback) {
    model.on(event, callback);
    this.subscriptions.push(() => model.off(event, callback));
  }

  remove() {
    this.subscriptions.forEach((off) => off());
    this.children.forEach((child) => child.remove());
    this.el.remove();
  }

  /** The CSS classes the kernel gave (``add_class``), beside the widget's own. */
  classes(own) {
    const show = () => { this.el.className = [own, ...(this.model.get("_dom_classes") || [])].join(" "); };
    show();
    this.listen(this.model, "change:_dom_classes", show);
  }

  /** Layout (width, display, …) and style (colours, widths) from their own models. */
  async styled(styleTarget = this.el, styleMap = {}) {
    const apply = (el, model, css) => {
      const show = () => {
        for (const [key, prop] of Object.entries(css)) el.style.setProperty(prop, String(model.get(key) ?? ""));
      };
      show();
      this.listen(model, "change", show);
    };
    const layoutRef = this.model.get("layout");
    if (layoutRef) apply(this.el, await this.manager.model(layoutRef), LAYOUT);
    const styleRef = this.model.get("style");
    if (styleRef && Object.keys(styleMap).length) apply(styleTarget, await this.manager.model(styleRef), styleMap);
  }

  get manager() { return this.model.manager; }

  /** A label for the description, shown when there is one. */
  description(el) {
    const show = () => {
      const text = this.model.get("description") || "";
      if (this.model.get("description_allow_html")) el.innerHTML = text; else el.textContent = text;
      el.style.display = text ? "" : "none";
      el.title = this.model.get("description_tooltip") || this.model.get("tooltip") || "";
    };
    show();
    this.listen(this.model, "change:description", show);
  }

  /** Keep ``fn(value)`` in step with one state key. */
  bind(key, fn) {
    fn(this.model.get(key));
    this.listen(this.model, `change:${key}`, () => fn(this.model.get(key)));
  }
}

const FONT = { ...cssOf("font_weight", "font_family", "font_size", "font_style", "font_variant", "text_decoration"),
  text_color: "color" };
const DESCRIPTION = { description_width: "--rl-description-width" };

function labelled(view, own) {
  view.classes(`widget-inline-hbox ${own}`);
  const label = h("label", "widget-label");
  view.description(label);
  view.el.append(label);
  return label;
}

const RENDER = {
  async BoxModel(view, own = "widget-box") {
    view.classes(`widget-container widget-box ${own}`);
    let generation = 0;
    const show = async () => {
      const mine = ++generation;
      view.children.forEach((child) => child.remove());
      view.children = [];
      view.el.replaceChildren();  // and the slots of children an earlier change was still drawing
      const refs = view.model.get("children") || [];
      const slots = refs.map(() => view.el.appendChild(h("div", "rl-slot")));
      await Promise.all(refs.map(async (ref, i) => {
        const model = await view.manager.model(ref);
        if (mine !== generation) return;
        const child = await render(model);
        if (mine !== generation) { child.remove(); return; }
        view.children.push(child);
        slots[i].replaceWith(child.el);
      }));
    };
    boxStyle(view);
    view.listen(view.model, "change:children", show);
    await Promise.all([show(), view.styled()]);
  },
  HBoxModel(view) { return RENDER.BoxModel(view, "widget-hbox"); },
  VBoxModel(view) { return RENDER.BoxModel(view, "widget-vbox"); },

  async ButtonModel(view) {
    button(view, "widget-button");
    view.el.addEventListener("click", () => view.model.send({ event: "click" }));
    await view.styled(view.el, { button_color: "background-color", ...FONT });
  },

  async ToggleButtonModel(view) {
    button(view, "widget-toggle-button");
    const pressed = () => {
      const on = Boolean(view.model.get("value"));
      view.el.classList.toggle("mod-active", on);
      view.el.setAttribute("aria-pressed", String(on));
    };
    view.bind("value", pressed);
    view.listen(view.model, "change:_dom_classes", pressed);
    view.el.addEventListener("click", () => view.model.save({ value: !view.model.get("value") }));
    await view.styled(view.el, FONT);
  },

  async HTMLModel(view) {
    labelled(view, "widget-html");
    const content = view.el.appendChild(h("div", "widget-html-content"));
    view.bind("value", (value) => { content.innerHTML = value || ""; });
    await view.styled(content, { ...FONT, background: "background" });
  },
  HTMLMathModel(view) { return RENDER.HTMLModel(view); },

  async LabelModel(view) {
    view.classes("widget-label-basic widget-inline-hbox");
    const label = view.el.appendChild(h("label"));
    view.bind("value", (value) => { label.textContent = value || ""; });
    await view.styled(label, { ...FONT, background: "background" });
  },

  async TextModel(view, type = "text") {
    labelled(view, `widget-text`);
    const input = view.el.appendChild(h("input"));
    input.type = type;
    view.bind("placeholder", (text) => { input.placeholder = text || ""; });
    view.bind("disabled", (off) => { input.disabled = Boolean(off); });
    view.bind("value", (value) => { if (input.value !== String(value ?? "")) input.value = value ?? ""; });
    const sync = () => { if (input.value !== view.model.get("value")) view.model.save({ value: input.value }); };
    input.addEventListener("input", () => { if (view.model.get("continuous_update")) sync(); });
    input.addEventListener("change", sync);  // Enter, or leaving the box
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { sync(); view.model.send({ event: "submit" }); }
    });
    await view.styled(view.el, DESCRIPTION);
  },
  PasswordModel(view) { return RENDER.TextModel(view, "password"); },

  async CheckboxModel(view) {
    view.classes("widget-inline-hbox widget-checkbox");
    const box = view.el.appendChild(h("label", "widget-label-basic"));
    const input = box.appendChild(h("input"));
    input.type = "checkbox";
    const text = box.appendChild(h("span"));
    view.bind("description", (d) => { text.textContent = d || ""; });
    view.bind("value", (on) => { input.checked = Boolean(on); });
    view.bind("disabled", (off) => { input.disabled = Boolean(off); });
    input.addEventListener("change", () => view.model.save({ value: input.checked }));
    await view.styled();
  },

  async ToggleButtonsModel(view) {
    labelled(view, "widget-toggle-buttons");
    const group = view.el.appendChild(h("div", "btn-group"));
    const show = () => {
      group.replaceChildren();
      const labels = view.model.get("_options_labels") || [], tips = view.model.get("tooltips") || [];
      labels.forEach((text, i) => {
        const b = group.appendChild(h("button", "jupyter-button widget-toggle-button", text));
        b.title = tips[i] || "";
        b.disabled = Boolean(view.model.get("disabled"));
        b.classList.toggle("mod-active", view.model.get("index") === i);
        b.addEventListener("click", () => view.model.save({ index: i }));
      });
    };
    view.listen(view.model, "change:_options_labels change:index change:disabled change:tooltips", show);
    show();
    await view.styled(group, { button_width: "--rl-button-width", ...FONT });
  },

  async DropdownModel(view) {
    labelled(view, "widget-dropdown");
    const select = view.el.appendChild(h("select"));
    const show = () => {
      select.replaceChildren(...(view.model.get("_options_labels") || []).map((text, i) => {
        const option = h("option", "", text);
        option.value = String(i);
        return option;
      }));
      const index = view.model.get("index");
      select.value = index == null ? "" : String(index);
      select.disabled = Boolean(view.model.get("disabled"));
    };
    view.listen(view.model, "change:_options_labels change:index change:disabled", show);
    show();
    select.addEventListener("change", () => view.model.save({ index: select.value === "" ? null : Number(select.value) }));
    await view.styled(view.el, DESCRIPTION);
  },

  async IntSliderModel(view) {
    labelled(view, "widget-slider widget-hslider");
    const input = view.el.appendChild(h("input"));
    input.type = "range";
    const readout = view.el.appendChild(h("div", "widget-readout"));
    const show = () => {
      for (const key of ["min", "max", "step"]) input[key] = String(view.model.get(key) ?? "");
      input.value = String(view.model.get("value"));
      readout.textContent = String(view.model.get("value"));
      readout.style.display = view.model.get("readout") === false ? "none" : "";
      input.disabled = Boolean(view.model.get("disabled"));
    };
    view.listen(view.model, "change", show);
    show();
    input.addEventListener("input", () => {
      readout.textContent = input.value;
      if (view.model.get("continuous_update")) view.model.save({ value: Number(input.value) });
    });
    input.addEventListener("change", () => view.model.save({ value: Number(input.value) }));
    await view.styled(view.el, DESCRIPTION);
  },
  FloatSliderModel(view) { return RENDER.IntSliderModel(view); },

  async OutputModel(view) {
    view.classes("widget-output");
    const show = () => view.el.replaceChildren(...(view.model.get("outputs") || []).map(outputElement));
    show();
    view.listen(view.model, "change:outputs", show);
    view.manager.capturing.add(view.model);
    let clearOnNext = false;
    view.listen(view.model, "output", (msg) => {  // what the kernel prints while the widget captures
      if (msg.header.msg_type === "clear_output") {
        if (msg.content.wait) clearOnNext = true; else view.model.update({ outputs: [] });
        return;
      }
      const kept = clearOnNext ? [] : view.model.get("outputs") || [];
      clearOnNext = false;
      view.model.update({ outputs: [...kept, { output_type: msg.header.msg_type, ...msg.content }] });
    });
    await view.styled();
  },

  async AnyModel(view) {
    view.classes("rl-anywidget");
    const widget = await anywidgetModule(view.model);
    const api = typeof widget === "function" ? await widget() : widget;
    if (!view.manager.initialized.has(view.model.id)) {
      view.manager.initialized.add(view.model.id);
      await api.initialize?.({ model: view.model, experimental: {} });
    }
    const cleanup = await api.render?.({ model: view.model, el: view.el, experimental: {} });
    if (typeof cleanup === "function") view.subscriptions.push(cleanup);
    await view.styled();
  },
};

function boxStyle(view) {
  view.bind("box_style", (style) => {
    for (const s of ["success", "info", "warning", "danger"]) view.el.classList.toggle(`alert-${s}`, style === s);
  });
}

/** A button: its label, tooltip, whether it can be pressed, and its style (primary, danger, …). */
function button(view, own) {
  view.el = h("button");
  view.classes(`jupyter-widgets jupyter-button ${own}`);
  view.bind("description", (text) => { view.el.textContent = text || ""; });
  view.bind("tooltip", (tip) => { view.el.title = tip || ""; });
  view.bind("disabled", (off) => { view.el.disabled = Boolean(off); });
  buttonStyle(view);
}

function buttonStyle(view) {
  view.bind("button_style", (style) => {
    for (const s of ["primary", "success", "info", "warning", "danger"]) view.el.classList.toggle(`mod-${s}`, style === s);
  });
}

/** One output (nbformat) as the page shows it: HTML, an image, or text. */
function outputElement(output) {
  const data = output.data || {};
  if (data["text/html"] !== undefined) {
    const el = h("div", "jp-RenderedHTMLCommon");
    el.innerHTML = [].concat(data["text/html"]).join("");
    return el;
  }
  if (data["image/svg+xml"] !== undefined) {  // a chart drawn in the kernel
    const el = h("div", "rl-svg-chart");
    el.innerHTML = [].concat(data["image/svg+xml"]).join("");
    return el;
  }
  if (data["image/png"] !== undefined) {
    const img = h("img");
    img.src = `data:image/png;base64,${data["image/png"]}`;
    return img;
  }
  const text = output.output_type === "stream" ? output.text
    : output.output_type === "error" ? `${output.ename}: ${output.evalue}` : data["text/plain"];
  const pre = h("pre", output.name === "stderr" || output.output_type === "error" ? "rl-stderr" : "");
  pre.textContent = [].concat(text ?? "").join("");
  return pre;
}

const modules = new Map();  // an anywidget's module source -> its loaded module

/** An anywidget's front end: its ES module (loaded once per page for the same source) and CSS. */
async function anywidgetModule(model) {
  const source = model.get("_esm");
  const css = model.get("_css");
  if (css && !document.querySelector(`style[data-anywidget="${model.id}"]`)) {
    const style = document.head.appendChild(h("style"));
    style.dataset.anywidget = model.id;
    style.textContent = css;
  }
  if (!modules.has(source)) {
    const url = /^(https?:)?\/\//.test(source) ? source
      : URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    modules.set(source, import(url));
  }
  const mod = await modules.get(source);
  return mod.default ?? mod;
}

/** A view of ``model``, drawn (the returned view's ``el`` is ready to place). */
async function render(model) {
  const view = new View(model, h("div"));
  const draw = RENDER[model.name];
  try {
    if (!draw) throw new Error(`${model.name} is not drawn on this page`);
    await draw(view);
  } catch (err) {
    console.error(err);
    view.el = h("div", "rl-widget-error", `This part of the lesson could not be shown here (${err.message}); `
      + "it works in JupyterLab.");
  }
  return view;
}

// -- the page -----------------------------------------------------------------------------

function status(text, kind = "") {
  const el = document.getElementById("rl-status");
  if (!el) return;
  el.textContent = text;
  el.className = kind;
  el.style.display = text ? "" : "none";
}

/** Draw every widget output of the lesson, and keep them live. */
async function start() {
  const config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
  const kernel = new Kernel(config.baseUrl, config.kernelId);
  const manager = new Manager(kernel);
  kernel.onClose = () => status("The connection to the lesson was lost: reload the page to start again.", "rl-lost");
  await kernel.connect();
  await manager.loadAll();
  const slots = [...document.querySelectorAll(`script[type="${WIDGET_VIEW}"]`)];
  await Promise.all(slots.map(async (script) => {
    const { model_id: id } = JSON.parse(script.textContent);
    const holder = script.parentElement;
    const view = await render(await manager.model(id));
    holder.replaceChildren(view.el);
  }));
  status("");
  document.body.classList.add("rl-live");
}

window.rummylab = { start, status };

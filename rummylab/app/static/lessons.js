// rummylab's lesson page: the lesson's widgets, live from its kernel, drawn with plain DOM.
//
// Voilà's own page loads JupyterLab's 5 MB of JavaScript; on a laptop that also runs the
// browsers of a class, that is most of the work. This page talks the Jupyter widget protocol
// over the kernel's websocket itself (kernel.js) and draws every core widget of ipywidgets
// and anywidgets: containers, buttons, text and output here, the other controls in
// controls.js. A widget it does not know is named on the page.

const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";

// -- views --------------------------------------------------------------------------------

function h(tag, className = "", text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Widget state keys -> the CSS property each sets (``flex_flow`` -> ``flex-flow``). */
function cssOf(...keys) {
  return Object.fromEntries(keys.map((key) => [key, key.replace(/_/g, "-")]));
}

const LAYOUT = cssOf("align_content", "align_items", "align_self", "border_top", "border_right", "border_bottom",
  "border_left", "bottom", "display", "flex", "flex_flow", "grid_area", "grid_auto_columns", "grid_auto_flow",
  "grid_auto_rows", "grid_column", "grid_gap", "grid_row", "grid_template_areas", "grid_template_columns",
  "grid_template_rows", "height", "justify_content", "justify_items", "left", "margin", "max_height", "max_width",
  "min_height", "min_width", "object_fit", "object_position", "order", "overflow", "padding", "right", "top",
  "visibility", "width");

/** Every key of the style models: a CSS property of the widget's part, or a variable (``--``) of
 * the whole widget that lessons.css uses. */
const STYLE = {
  ...cssOf("font_family", "font_size", "font_style", "font_variant", "font_weight", "text_decoration", "background"),
  text_color: "color", button_color: "background-color", description_width: "--rl-description-width",
  button_width: "--rl-button-width", bar_color: "--rl-bar-color", handle_color: "--rl-handle-color",
};

/** A widget drawn in ``el``: keeps it up to date and lets go of the model when removed. */
class View {
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.subscriptions = [];
    this.children = [];
  }

  get manager() { return this.model.manager; }

  listen(model, event, callback) {
    model.on(event, callback);
    this.subscriptions.push(() => model.off(event, callback));
  }

  remove() {
    this.subscriptions.forEach((off) => off());
    this.subscriptions = [];
    this.children.forEach((child) => child.remove());
    this.el.remove();
  }

  /** The CSS classes the kernel gave (``add_class``), beside the widget's own. */
  classes(own) {
    const show = () => { this.el.className = [own, ...(this.model.get("_dom_classes") || [])].join(" "); };
    show();
    this.listen(this.model, "change:_dom_classes", show);
  }

  /** Layout (width, display, …) on the widget, and style (colours, fonts) on ``part`` of it. */
  async styled(part = this.el) {
    const apply = (model, css, target) => {
      const show = () => {
        for (const [key, prop] of Object.entries(css)) {
          if (key in model.state) (prop.startsWith("--") ? this.el : target).style.setProperty(prop, model.get(key) ?? "");
        }
      };
      show();
      this.listen(model, "change", show);
    };
    const [layout, style] = await Promise.all(["layout", "style"].map((key) => {
      const ref = this.model.get(key);
      return ref ? this.manager.model(ref) : null;
    }));
    if (layout) apply(layout, LAYOUT, this.el);
    if (style) apply(style, STYLE, part);
  }

  /** A label for the description, shown when there is one. */
  description(el) {
    const show = () => {
      const text = this.model.get("description") || "";
      if (this.model.get("description_allow_html")) el.innerHTML = text; else el.textContent = text;
      el.style.display = text ? "" : "none";
      el.title = this.model.get("description_tooltip") || this.model.get("tooltip") || "";
    };
    show();
    this.listen(this.model, "change:description change:description_allow_html change:tooltip", show);
  }

  /** Keep ``fn(value)`` in step with one state key. */
  bind(key, fn) {
    fn(this.model.get(key));
    this.listen(this.model, `change:${key}`, () => fn(this.model.get(key)));
  }

  /** Keep ``fn()`` in step with several state keys. */
  each(keys, fn) {
    fn();
    this.listen(this.model, keys.split(" ").map((k) => `change:${k}`).join(" "), fn);
  }

  /** The inputs that ``disabled`` switches off. */
  disables(...inputs) {
    this.bind("disabled", (off) => inputs.forEach((input) => { input.disabled = Boolean(off); }));
  }
}

/** A control's row: its description label, then what ``own`` draws. */
function labelled(view, own) {
  view.classes(`widget-inline-hbox ${own}`);
  const label = h("label", "widget-label");
  view.description(label);
  view.el.append(label);
  return label;
}

/** Draw the views of ``children`` (model refs, redrawn when they change); ``place(views)`` puts
 * their elements on the page. A change that comes while an earlier one is drawing wins. */
function drawChildren(view, place) {
  let generation = 0;
  const show = async () => {
    const mine = ++generation;
    const views = await Promise.all((view.model.get("children") || []).map(async (ref) => {
      return render(await view.manager.model(ref));
    }));
    if (mine !== generation) { views.forEach((v) => v.remove()); return; }
    view.children.forEach((child) => { if (!views.includes(child)) child.remove(); });
    view.children = views;
    place(views);
  };
  view.listen(view.model, "change:children", show);
  return show();
}

function boxStyle(view) {
  view.bind("box_style", (style) => {
    for (const s of ["success", "info", "warning", "danger"]) view.el.classList.toggle(`alert-${s}`, style === s);
  });
}

/** Tab, Accordion and Stack: children one of which (``selected_index``) shows. */
async function selector(view, kind) {
  view.classes(`widget-container rl-${kind}`);
  const bar = view.el.appendChild(h("div", "rl-tab-bar"));
  const panels = view.el.appendChild(h("div", "rl-panels"));
  let views = [];
  const choose = (i) => view.model.save({ selected_index: i });
  const show = () => {
    const selected = view.model.get("selected_index"), titles = view.model.get("titles") || [];
    const heads = views.map((child, i) => {
      const head = h("button", `rl-tab-title${i === selected ? " mod-active" : ""}`, titles[i] || "");
      head.setAttribute("aria-expanded", String(i === selected));
      head.addEventListener("click", () => choose(kind === "accordion" && i === selected ? null : i));
      return head;
    });
    if (kind === "tab") bar.replaceChildren(...heads);
    panels.replaceChildren(...views.flatMap((child, i) => {
      child.el.classList.add("rl-panel");
      child.el.classList.toggle("rl-hidden", i !== selected);
      return kind === "accordion" ? [heads[i], child.el] : [child.el];
    }));
  };
  view.listen(view.model, "change:selected_index change:titles", show);
  boxStyle(view);
  await Promise.all([drawChildren(view, (drawn) => { views = drawn; show(); }), view.styled()]);
}

const RENDER = {
  async BoxModel(view, own = "widget-box") {
    view.classes(`widget-container widget-box ${own}`);
    boxStyle(view);
    await Promise.all([drawChildren(view, (views) => view.el.replaceChildren(...views.map((v) => v.el))),
      view.styled()]);
  },
  HBoxModel(view) { return RENDER.BoxModel(view, "widget-hbox"); },
  VBoxModel(view) { return RENDER.BoxModel(view, "widget-vbox"); },
  GridBoxModel(view) { return RENDER.BoxModel(view, "widget-gridbox"); },
  TabModel(view) { return selector(view, "tab"); },
  AccordionModel(view) { return selector(view, "accordion"); },
  StackModel(view) { return selector(view, "stack"); },

  async ButtonModel(view) {
    button(view, "widget-button");
    view.el.addEventListener("click", () => view.model.send({ event: "click" }));
    await view.styled();
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
    await view.styled();
  },

  async HTMLModel(view) {
    labelled(view, "widget-html");
    const content = view.el.appendChild(h("div", "widget-html-content"));
    view.bind("value", (value) => { content.innerHTML = value || ""; });
    await view.styled(content);
  },
  // The page loads no MathJax (it would be most of the page): TeX shows as typed
  HTMLMathModel(view) { return RENDER.HTMLModel(view); },

  async LabelModel(view) {
    view.classes("widget-label-basic widget-inline-hbox");
    const label = view.el.appendChild(h("label"));
    view.bind("value", (value) => { label.textContent = value || ""; });
    await view.styled(label);
  },

  async CheckboxModel(view) {
    view.classes("widget-inline-hbox widget-checkbox");
    const indent = view.el.appendChild(h("span", "widget-label"));
    view.bind("indent", (on) => { indent.style.display = on ? "" : "none"; });
    const box = view.el.appendChild(h("label", "widget-label-basic"));
    const input = box.appendChild(h("input"));
    input.type = "checkbox";
    const text = box.appendChild(h("span"));
    view.description(text);
    view.bind("value", (on) => { input.checked = Boolean(on); });
    view.disables(input);
    input.addEventListener("change", () => view.model.save({ value: input.checked }));
    await view.styled();
  },

  async ValidModel(view) {
    labelled(view, "widget-valid");
    const mark = view.el.appendChild(h("span", "rl-valid"));
    view.each("value readout", () => {
      const value = view.model.get("value");
      mark.textContent = value === true ? "✔" : value === false ? `✖ ${view.model.get("readout") || ""}` : "";
      mark.className = `rl-valid ${value === true ? "mod-valid" : value === false ? "mod-invalid" : ""}`;
    });
    await view.styled();
  },

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

/** A button: its label, tooltip, whether it can be pressed, and its style (primary, danger, …). */
function button(view, own) {
  view.el = h("button");
  view.classes(`jupyter-widgets jupyter-button ${own}`);
  view.bind("description", (text) => { view.el.textContent = text || ""; });
  view.bind("tooltip", (tip) => { view.el.title = tip || ""; });
  view.disables(view.el);
  buttonStyle(view, view.el);
}

function buttonStyle(view, el) {
  view.bind("button_style", (style) => {
    for (const s of ["primary", "success", "info", "warning", "danger"]) el.classList.toggle(`mod-${s}`, style === s);
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
  for (const type of ["image/png", "image/jpeg", "image/gif"]) {
    if (data[type] === undefined) continue;
    const img = h("img");
    img.src = `data:${type};base64,${data[type]}`;
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

/** A view of ``model``, drawn (the returned view's ``el`` is ready to place); it goes when the
 * kernel closes the model. */
async function render(model) {
  const view = new View(model, h("div"));
  const draw = RENDER[model.name];
  try {
    if (!draw) throw new Error(`${model.name} is not drawn on this page`);
    await draw(view);
  } catch (err) {
    console.error(err);
    view.remove();
    view.el = h("div", "rl-widget-error",
      say("This part of the lesson could not be shown here ({error}); it works in JupyterLab.", { error: err.message }));
  }
  view.listen(model, "comm:close", () => view.remove());
  return view;
}

/** A sentence of the page in the lesson's language (the words its build put in the page:
 * rummylab.page_template.PAGE_WORDS), its {fields} filled in. */
function say(text, fields = {}) {
  const words = window.rummylab_words || {};
  return (words[text] || text).replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}

export { RENDER, WIDGET_VIEW, View, h, labelled, buttonStyle, drawChildren, render, say };

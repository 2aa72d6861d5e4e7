// The lesson page's controls: text and numbers, choices, sliders, progress bars, colours,
// dates and times, tags, media, Play, FileUpload and game controllers. Each sends what a
// student does back to the kernel (``model.save``), as JupyterLab's views do.

import { RENDER, h, labelled, buttonStyle, render } from "./lessons.js";

/** A number as d3-format's ``spec`` (the subset ipywidgets uses: ``,``, ``.N``, and d f e g s %). */
function format(spec, x) {
  const m = /^(,)?(?:\.(\d+))?([defgs%])?$/.exec(spec || "");
  if (typeof x !== "number" || !m) return String(x ?? "");
  const [, comma, digits, type] = m;
  const n = digits === undefined ? undefined : Number(digits);
  const text = type === "d" ? Math.round(x).toString()
    : type === "f" ? x.toFixed(n ?? 6)
    : type === "e" ? x.toExponential(n ?? 6)
    : type === "%" ? `${(x * 100).toFixed(n ?? 0)}%`
    : n !== undefined ? x.toPrecision(Math.max(n, 1)) : String(x);
  return comma ? text.replace(/^(-?\d+)/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")) : text;
}

// -- text and numbers ----------------------------------------------------------------------

/** A text box (``tag`` input or textarea) that sends its value as typed, or on Enter / leaving it. */
async function text(view, own, { tag = "input", type = "text", read = (s) => s } = {}) {
  labelled(view, `widget-text ${own}`);
  const input = view.el.appendChild(h(tag));
  if (tag === "input") input.type = type;
  view.bind("placeholder", (p) => { input.placeholder = p || ""; });
  view.disables(input);
  view.bind("value", (value) => { if (read(input.value) !== value) input.value = value ?? ""; });
  const sync = (final) => {
    const value = read(input.value);
    if (value !== undefined && value !== view.model.get("value")) view.model.save({ value });
    if (final) input.value = view.model.get("value") ?? "";
  };
  input.addEventListener("input", () => { if (view.model.get("continuous_update")) sync(false); });
  input.addEventListener("change", () => sync(true));  // Enter, or leaving the box
  if (tag === "input") {
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { sync(true); view.model.send({ event: "submit" }); }
    });
  }
  await view.styled(input);
  return input;
}

/** A number box: IntText, FloatText and their bounded kinds (clamped to ``min`` .. ``max``). */
async function number(view, int) {
  const read = (s) => {
    if (s.trim() === "" || !Number.isFinite(Number(s))) return undefined;
    const [min, max] = [view.model.get("min"), view.model.get("max")];
    const n = int ? Math.round(Number(s)) : Number(s);
    return Math.min(max ?? Infinity, Math.max(min ?? -Infinity, n));
  };
  const input = await text(view, "widget-number", { type: "number", read });
  view.each("min max step", () => {
    for (const key of ["min", "max"]) input[key] = view.model.get(key) ?? "";
    input.step = view.model.get("step") ?? (int ? 1 : "any");
  });
}

Object.assign(RENDER, {
  TextModel(view) { return text(view, ""); },
  PasswordModel(view) { return text(view, "widget-password", { type: "password" }); },
  async TextareaModel(view) {
    const area = await text(view, "widget-textarea", { tag: "textarea" });
    view.bind("rows", (rows) => { area.rows = rows || 3; });
  },
  async ComboboxModel(view) {
    const input = await text(view, "widget-combobox", {
      read: (s) => (!view.model.get("ensure_option") || (view.model.get("options") || []).includes(s) ? s : undefined),
    });
    const list = view.el.appendChild(h("datalist"));
    list.id = `rl-options-${view.model.id}`;
    input.setAttribute("list", list.id);
    view.bind("options", (options) => list.replaceChildren(...(options || []).map((o) => option(o, o))));
  },
  IntTextModel(view) { return number(view, true); },
  BoundedIntTextModel(view) { return number(view, true); },
  FloatTextModel(view) { return number(view, false); },
  BoundedFloatTextModel(view) { return number(view, false); },
});

function option(value, label) {
  const el = h("option", "", label);
  el.value = value;
  return el;
}

// -- choices -------------------------------------------------------------------------------

/** Dropdown, Select, SelectMultiple (a <select>), RadioButtons and ToggleButtons: the options'
 * labels, the chosen ``index`` (a list of them for SelectMultiple). */
async function choice(view, kind) {
  labelled(view, `widget-${kind}`);
  const multiple = kind === "select-multiple";
  const labels = () => view.model.get("_options_labels") || [];
  const chosen = () => [].concat(view.model.get("index") ?? []);
  const pick = (list) => view.model.save({ index: multiple ? list : list[0] ?? null });
  if (kind === "dropdown" || kind.startsWith("select")) {
    const select = view.el.appendChild(h("select"));
    select.multiple = multiple;
    view.each("_options_labels index rows disabled", () => {
      select.replaceChildren(...labels().map((label, i) => option(String(i), label)));
      if (kind !== "dropdown") select.size = view.model.get("rows") || 5;
      for (const o of select.options) o.selected = chosen().includes(Number(o.value));
      if (!chosen().length) select.selectedIndex = -1;
      select.disabled = Boolean(view.model.get("disabled"));
    });
    select.addEventListener("change", () => pick([...select.selectedOptions].map((o) => Number(o.value))));
    return view.styled(select);
  }
  const group = view.el.appendChild(h("div", kind === "toggle-buttons" ? "btn-group" : "widget-radio-box"));
  view.each("_options_labels index disabled tooltips button_style", () => {
    const off = Boolean(view.model.get("disabled")), tips = view.model.get("tooltips") || [];
    group.replaceChildren(...labels().map((label, i) => {
      if (kind === "toggle-buttons") {
        const b = h("button", `jupyter-button widget-toggle-button mod-${view.model.get("button_style") || "plain"}`, label);
        Object.assign(b, { title: tips[i] || "", disabled: off });
        b.classList.toggle("mod-active", chosen().includes(i));
        b.addEventListener("click", () => pick([i]));
        return b;
      }
      const row = h("label", "widget-label-basic");
      const radio = row.appendChild(h("input"));
      Object.assign(radio, { type: "radio", name: `rl-radio-${view.model.id}`, checked: chosen().includes(i), disabled: off });
      radio.addEventListener("change", () => pick([i]));
      row.append(label);
      return row;
    }));
  });
  return view.styled(group);
}

Object.assign(RENDER, {
  DropdownModel(view) { return choice(view, "dropdown"); },
  SelectModel(view) { return choice(view, "select"); },
  SelectMultipleModel(view) { return choice(view, "select-multiple"); },
  RadioButtonsModel(view) { return choice(view, "radiobuttons"); },
  ToggleButtonsModel(view) { return choice(view, "toggle-buttons"); },
});

// -- sliders and progress bars -------------------------------------------------------------

/** A slider, or a range slider (two handles on one track), over ``scale``: the bounds the
 * handles move in, and the model's ``key`` to and from a handle's place. */
async function slider(view, { key = "value", range = false, scale = {} } = {}) {
  const { bounds = (m) => [m.get("min"), m.get("max"), m.get("step") ?? "any"], place = (v) => v,
    value = (u) => u, shown = (v) => format(view.model.get("readout_format"), v) } = scale;
  labelled(view, "widget-slider");
  const track = view.el.appendChild(h("div", range ? "rl-track rl-range" : "rl-track"));
  const handles = (range ? [0, 1] : [0]).map(() => Object.assign(track.appendChild(h("input")), { type: "range" }));
  const readout = view.el.appendChild(h("div", "widget-readout"));
  const values = (from) => (range ? from : [from]);
  const show = (v) => { readout.textContent = values(v).map(shown).join(" – "); };
  const draw = () => {
    const m = view.model, [min, max, step] = bounds(m);
    handles.forEach((input, i) => {
      Object.assign(input, { min, max, step, disabled: Boolean(m.get("disabled")) });
      input.value = String(place(values(m.get(key))[i]));
    });
    show(m.get(key));
    readout.style.display = m.get("readout") === false ? "none" : "";
    view.el.classList.toggle("mod-vertical", m.get("orientation") === "vertical");
  };
  view.listen(view.model, "change", draw);
  draw();
  handles.forEach((input, i) => {
    const move = (final) => {
      const [lo, hi] = handles.map((x) => Number(x.value));
      if (range && lo > hi) handles[1 - i].value = input.value;  // one handle pushes the other
      const now = handles.map((x) => value(Number(x.value)));
      const v = range ? now : now[0];
      show(v);
      if (final || view.model.get("continuous_update")) view.model.save({ [key]: v });
    };
    input.addEventListener("input", () => move(false));
    input.addEventListener("change", () => move(true));
  });
  await view.styled();
}

const SCALES = { int: { value: Math.round } };

/** Options by index: SelectionSlider and SelectionRangeSlider. */
function byIndex(view) {
  return { bounds: (m) => [0, Math.max((m.get("_options_labels") || []).length - 1, 0), 1],
    shown: (i) => (view.model.get("_options_labels") || [])[i] ?? "" };
}

/** The log slider's handle is at the exponent (``min`` .. ``max``) of ``value`` in ``base``. */
function logScale(view) {
  const base = () => view.model.get("base") || 10;
  return { place: (v) => Math.log(v) / Math.log(base()), value: (u) => base() ** u };
}

async function bar(view) {
  labelled(view, "widget-progress");
  const track = view.el.appendChild(h("div", "rl-progress"));
  track.setAttribute("role", "progressbar");
  const fill = track.appendChild(h("div", "rl-bar"));
  view.each("value min max orientation bar_style", () => {
    const [v, min, max] = ["value", "min", "max"].map((k) => Number(view.model.get(k)));
    const share = `${max > min ? Math.min(1, Math.max(0, (v - min) / (max - min))) * 100 : 0}%`;
    const vertical = view.model.get("orientation") === "vertical";
    Object.assign(fill.style, { width: vertical ? "100%" : share, height: vertical ? share : "100%" });
    fill.className = `rl-bar mod-${view.model.get("bar_style") || "plain"}`;
    view.el.classList.toggle("mod-vertical", vertical);
    Object.entries({ "aria-valuenow": v, "aria-valuemin": min, "aria-valuemax": max })
      .forEach(([name, n]) => track.setAttribute(name, String(n)));
  });
  await view.styled();
}

Object.assign(RENDER, {
  IntSliderModel(view) { return slider(view, { scale: SCALES.int }); },
  FloatSliderModel(view) { return slider(view); },
  FloatLogSliderModel(view) { return slider(view, { scale: logScale(view) }); },
  IntRangeSliderModel(view) { return slider(view, { range: true, scale: SCALES.int }); },
  FloatRangeSliderModel(view) { return slider(view, { range: true }); },
  SelectionSliderModel(view) { return slider(view, { key: "index", scale: byIndex(view) }); },
  SelectionRangeSliderModel(view) { return slider(view, { key: "index", range: true, scale: byIndex(view) }); },
  IntProgressModel(view) { return bar(view); },
  FloatProgressModel(view) { return bar(view); },
});

// -- colours, dates and times --------------------------------------------------------------

/** A CSS colour (a name, #abc, rgb(…)) as the #rrggbb a colour input takes. */
function hexColor(value) {
  hexColor.ctx ??= document.createElement("canvas").getContext("2d");
  const ctx = hexColor.ctx;
  ctx.fillStyle = "#000000";
  ctx.fillStyle = value || "#000000";
  return /^#[0-9a-f]{6}$/i.test(ctx.fillStyle) ? ctx.fillStyle : "#000000";
}

const pad = (n, width = 2) => String(n).padStart(width, "0");
const DAY = {
  show: (v) => `${pad(v.year, 4)}-${pad(v.month + 1)}-${pad(v.date)}`,
  read: (s) => { const [year, month, date] = s.split("-").map(Number); return { year, month: month - 1, date }; },
};
const CLOCK = {
  show: (v) => `${pad(v.hours)}:${pad(v.minutes)}`
    + (v.seconds || v.milliseconds ? `:${pad(v.seconds)}${v.milliseconds ? `.${pad(Math.round(v.milliseconds), 3)}` : ""}` : ""),
  read: (s) => {
    const [hours, minutes, seconds = 0] = s.split(":").map(Number);
    return { hours, minutes, seconds: Math.floor(seconds), milliseconds: Math.round((seconds % 1) * 1000) };
  },
};
const NAIVE = {
  show: (v) => `${DAY.show(v)}T${CLOCK.show(v)}`,
  read: (s) => ({ ...DAY.read(s.split("T")[0]), ...CLOCK.read(s.split("T")[1]) }),
};
const DATE_PARTS = ["FullYear", "Month", "Date", "Hours", "Minutes", "Seconds", "Milliseconds"];
const KEYS = ["year", "month", "date", "hours", "minutes", "seconds", "milliseconds"];
/** DatetimePicker's value is in UTC; the student sees and types their own time. */
const AWARE = {
  show: (v) => {
    const d = new Date(Date.UTC(...KEYS.map((k) => v[k])));
    return NAIVE.show(Object.fromEntries(KEYS.map((k, i) => [k, d[`get${DATE_PARTS[i]}`]()])));
  },
  read: (s) => {
    const v = NAIVE.read(s), d = new Date(...KEYS.map((k) => v[k]));
    return Object.fromEntries(KEYS.map((k, i) => [k, d[`getUTC${DATE_PARTS[i]}`]()]));
  },
};

async function picker(view, type, kind) {
  labelled(view, "widget-datepicker");
  const input = view.el.appendChild(Object.assign(h("input"), { type }));
  view.each("value min max step", () => {
    const m = view.model;
    const shown = (v) => (v ? kind.show(v) : "");
    input.value = shown(m.get("value"));
    for (const key of ["min", "max"]) input[key] = shown(m.get(key));
    if (m.get("step") !== undefined) input.step = m.get("step") ?? "any";
  });
  view.disables(input);
  input.addEventListener("change", () => view.model.save({ value: input.value ? kind.read(input.value) : null }));
  await view.styled();
}

Object.assign(RENDER, {
  async ColorPickerModel(view) {
    labelled(view, "widget-colorpicker");
    const typed = view.el.appendChild(Object.assign(h("input", "rl-color-text"), { type: "text" }));
    const swatch = view.el.appendChild(Object.assign(h("input"), { type: "color" }));
    view.bind("concise", (concise) => { typed.style.display = concise ? "none" : ""; });
    view.bind("value", (value) => { typed.value = value || ""; swatch.value = hexColor(value); });
    view.disables(typed, swatch);
    swatch.addEventListener("change", () => view.model.save({ value: swatch.value }));
    typed.addEventListener("change", () => view.model.save({ value: typed.value }));
    await view.styled();
  },
  DatePickerModel(view) { return picker(view, "date", DAY); },
  TimeModel(view) { return picker(view, "time", CLOCK); },
  DatetimeModel(view) { return picker(view, "datetime-local", AWARE); },
  NaiveDatetimeModel(view) { return picker(view, "datetime-local", NAIVE); },
});

// -- tags ----------------------------------------------------------------------------------

/** TagsInput, ColorsInput, IntsInput and FloatsInput: the tags, each with a remove button, and
 * a box that adds one on Enter (``read`` turns what was typed into a tag, or undefined). */
async function tags(view, read, colour = false) {
  labelled(view, "widget-tagsinput");
  const chips = view.el.appendChild(h("span", "rl-tags"));
  const input = view.el.appendChild(Object.assign(h("input", "rl-tag-input"), { type: "text", placeholder: "add…" }));
  const list = view.el.appendChild(h("datalist"));
  list.id = `rl-tags-${view.model.id}`;
  input.setAttribute("list", list.id);
  const shown = (tag) => (typeof tag === "number" ? format(view.model.get("format"), tag) : String(tag));
  view.each("value allowed_tags tag_style disabled format", () => {
    const m = view.model, value = m.get("value") || [], off = Boolean(m.get("disabled"));
    list.replaceChildren(...(m.get("allowed_tags") || []).map((t) => option(shown(t), shown(t))));
    chips.replaceChildren(...value.map((tag, i) => {
      const chip = h("span", `rl-tag mod-${m.get("tag_style") || "plain"}`, shown(tag));
      if (colour) chip.style.background = tag;
      const remove = chip.appendChild(Object.assign(h("button", "rl-tag-remove", "×"), { disabled: off }));
      remove.setAttribute("aria-label", `remove ${shown(tag)}`);
      remove.addEventListener("click", () => m.save({ value: value.filter((_, j) => j !== i) }));
      return chip;
    }));
    input.disabled = off;
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !input.value.trim()) return;
    const m = view.model, value = m.get("value") || [], allowed = m.get("allowed_tags") || [];
    const tag = read(input.value.trim(), m);
    const ok = tag !== undefined && (!allowed.length || allowed.includes(tag))
      && (m.get("allow_duplicates") || !value.includes(tag));
    input.classList.toggle("mod-invalid", !ok);
    if (!ok) return;
    input.value = "";
    m.save({ value: [...value, tag] });
  });
  await view.styled();
}

/** A number typed as a tag, within the widget's ``min`` .. ``max``. */
function numberTag(int) {
  return (s, m) => {
    const n = Number(s);
    const ok = s !== "" && Number.isFinite(n) && (!int || Number.isInteger(n))
      && n >= (m.get("min") ?? -Infinity) && n <= (m.get("max") ?? Infinity);
    return ok ? n : undefined;
  };
}

Object.assign(RENDER, {
  TagsInputModel(view) { return tags(view, (s) => s); },
  ColorsInputModel(view) { return tags(view, (s) => (CSS.supports("color", s) ? s : undefined), true); },
  IntsInputModel(view) { return tags(view, numberTag(true)); },
  FloatsInputModel(view) { return tags(view, numberTag(false)); },
});

// -- media, Play, FileUpload, game controllers ---------------------------------------------

/** Image, Audio and Video: the bytes (or a URL, ``format`` "url") in an element of ``tag``. */
async function media(view, tag, kind) {
  view.classes(`widget-${kind}`);
  const el = view.el.appendChild(h(tag));
  let url = null;
  view.subscriptions.push(() => url && URL.revokeObjectURL(url));
  view.each("value format width height autoplay loop controls", () => {
    const m = view.model, value = m.get("value"), fmt = m.get("format");
    if (url) URL.revokeObjectURL(url);
    url = null;
    if (fmt === "url") el.src = new TextDecoder().decode(value);
    else if (value?.byteLength) {
      url = URL.createObjectURL(new Blob([value], { type: `${kind}/${fmt === "svg" ? "svg+xml" : fmt}` }));
      el.src = url;
    }
    for (const key of ["width", "height"]) {
      if (m.get(key)) el.setAttribute(key, m.get(key)); else el.removeAttribute(key);
    }
    for (const key of ["autoplay", "loop", "controls"]) if (m.get(key) !== undefined) el[key] = Boolean(m.get(key));
  });
  await view.styled();
}

/** A small button with a symbol; its name for screen readers and tooltips. */
function iconButton(parent, symbol, name) {
  const b = parent.appendChild(h("button", `jupyter-button rl-${name}`, symbol));
  b.title = name;
  b.setAttribute("aria-label", name);
  return b;
}

Object.assign(RENDER, {
  ImageModel(view) { return media(view, "img", "image"); },
  AudioModel(view) { return media(view, "audio", "audio"); },
  VideoModel(view) { return media(view, "video", "video"); },

  // Play counts in the page, as in JupyterLab: a tick every ``interval`` ms sends the next value
  async PlayModel(view) {
    labelled(view, "widget-play");
    const [play, pause, stop, repeat] = ["▶", "❚❚", "■", "↻"].map((s, i) =>
      iconButton(view.el, s, ["play", "pause", "stop", "repeat"][i]));
    const m = view.model;
    const tick = () => {
      const next = m.get("value") + m.get("step");
      if (next <= m.get("max")) m.save({ value: next });
      else if (m.get("repeat")) m.save({ value: m.get("min") });
      else m.save({ playing: false });
    };
    let timer = null;
    view.subscriptions.push(() => clearInterval(timer));
    view.each("playing interval repeat show_repeat disabled", () => {
      clearInterval(timer);
      timer = m.get("playing") && !m.get("disabled") ? setInterval(tick, m.get("interval") || 100) : null;
      play.classList.toggle("mod-active", Boolean(m.get("playing")));
      repeat.classList.toggle("mod-active", Boolean(m.get("repeat")));
      repeat.style.display = m.get("show_repeat") === false ? "none" : "";
      for (const b of [play, pause, stop, repeat]) b.disabled = Boolean(m.get("disabled"));
    });
    play.addEventListener("click", () => m.save(m.get("value") >= m.get("max")
      ? { value: m.get("min"), playing: true } : { playing: true }));
    pause.addEventListener("click", () => m.save({ playing: false }));
    stop.addEventListener("click", () => m.save({ playing: false, value: m.get("min") }));
    repeat.addEventListener("click", () => m.save({ repeat: !m.get("repeat") }));
    await view.styled();
  },

  async FileUploadModel(view) {
    view.el = h("label");  // a label: clicking it opens the file chooser of the input inside
    view.classes("jupyter-widgets jupyter-button widget-upload");
    const input = view.el.appendChild(Object.assign(h("input"), { type: "file", hidden: true }));
    const caption = view.el.appendChild(h("span"));
    view.each("description value accept multiple disabled error", () => {
      const m = view.model;
      Object.assign(input, { accept: m.get("accept") || "", multiple: Boolean(m.get("multiple")),
        disabled: Boolean(m.get("disabled")) });
      caption.textContent = m.get("error") ? `Error: ${m.get("error")}`
        : `${m.get("description") || "Upload"} (${(m.get("value") || []).length})`;
    });
    buttonStyle(view, view.el);
    input.addEventListener("change", async () => {
      const value = await Promise.all([...input.files].map(async (file) => ({ name: file.name, type: file.type,
        size: file.size, last_modified: file.lastModified, content: await file.arrayBuffer() })));
      input.value = "";
      view.model.save({ value });
    });
    await view.styled();
  },

  // The page reads the gamepad (the kernel cannot) and makes its buttons' and axes' models
  async ControllerModel(view) {
    view.classes("widget-controller");
    const note = view.el.appendChild(h("div", "rl-controller-name"));
    const parts = view.el.appendChild(h("div", "rl-controller-parts"));
    const m = view.model;
    view.each("connected name index", () => {
      note.textContent = m.get("connected") ? m.get("name")
        : `Connect game controller ${(m.get("index") || 0) + 1} and press one of its buttons.`;
    });
    const child = (ref) => m.manager.models.get(String(ref).replace("IPY_MODEL_", ""))?.model;
    view.each("buttons axes", async () => {
      const views = await Promise.all([...(m.get("buttons") || []), ...(m.get("axes") || [])]
        .map(async (ref) => render(await m.manager.model(ref))));
      view.children.forEach((v) => v.remove());
      view.children = views;
      parts.replaceChildren(...views.map((v) => v.el));
    });
    const poll = () => {
      const pad = navigator.getGamepads?.()[m.get("index") || 0];
      if (!pad) { if (m.get("connected")) m.save({ connected: false }); return; }
      if (!m.get("connected") && !m.creating) {
        m.creating = true;
        const made = (name, view, items) => items.map(() => `IPY_MODEL_${m.manager.create(name, view, { value: 0 }).id}`);
        m.save({ connected: true, name: pad.id, mapping: pad.mapping,
          buttons: made("ControllerButtonModel", "ControllerButtonView", pad.buttons),
          axes: made("ControllerAxisModel", "ControllerAxisView", pad.axes) });
      }
      (m.get("buttons") || []).forEach((ref, i) => {
        const b = child(ref), p = pad.buttons[i];
        if (b && p && b.get("value") !== p.value) b.save({ value: p.value, pressed: p.pressed });
      });
      (m.get("axes") || []).forEach((ref, i) => {
        const a = child(ref);
        if (a && a.get("value") !== pad.axes[i]) a.save({ value: pad.axes[i] });
      });
    };
    const timer = setInterval(poll, 100);
    view.subscriptions.push(() => clearInterval(timer));
    await view.styled();
  },
  ControllerButtonModel(view) { return gauge(view, "rl-controller-button", (v) => v); },
  ControllerAxisModel(view) { return gauge(view, "rl-controller-axis", (v) => (v + 1) / 2); },
});

/** A game controller's button or axis: a small bar filled to its value. */
async function gauge(view, own, share) {
  view.classes(`rl-gauge ${own}`);
  const fill = view.el.appendChild(h("div", "rl-bar"));
  view.bind("value", (v) => { fill.style.height = `${Math.round(share(Number(v) || 0) * 100)}%`; });
  await view.styled();
}

export { format };

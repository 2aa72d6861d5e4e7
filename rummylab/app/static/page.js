// The lesson page itself: it connects to the lesson's kernel, draws the widget outputs, says
// at once when the kernel is lost, and sends a lesson whose widgets have front ends of their
// own (bqplot, ipyleaflet, …) to Voilà's own page, which can load them.

import { Kernel, Manager } from "./kernel.js";
import { WIDGET_VIEW, h, render, say } from "./lessons.js";
import "./controls.js";

const OWN_PAGE = "rummylab-voila";  // rummylab.classroom.class_code.OWN_PAGE: Voilà's page, served offline

/** The module of a model's front end (model or view) that is neither ipywidgets' nor
 * anywidget's nor rummylab's, or "". */
function foreign(model) {
  const ours = (m) => !m || m.startsWith("@jupyter-widgets/") || m === "anywidget" || m.startsWith("rummylab");
  return [model.get("_model_module"), model.get("_view_module")].map((m) => String(m || "")).find((m) => !ours(m)) || "";
}

function status(text, kind = "", fresh = false) {
  const el = document.getElementById("rl-status");
  if (!el) return;
  el.textContent = text;
  el.className = kind;
  el.setAttribute("role", kind === "rl-lost" ? "alert" : "status");
  el.style.display = text ? "" : "none";
  if (fresh) {
    const again = el.appendChild(h("button", "jupyter-button mod-primary rl-fresh", say("Open a fresh copy of the lesson")));
    again.addEventListener("click", () => location.reload());
  }
}

/** Voilà's own page for this lesson (once: a page already there says what it cannot show). */
function toOwnPage(modules) {
  const url = new URL(location.href);
  if (url.searchParams.has("template")) return false;
  url.searchParams.set("template", OWN_PAGE);
  url.searchParams.set("widgets", [...new Set(modules)].join(" ").slice(0, 200));
  status(say("This lesson's widgets need Voilà's own page: opening it…"));
  location.replace(url.href);
  return true;
}

/** Draw every widget output of the lesson, and keep them live. */
async function start() {
  const config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
  const kernel = new Kernel(config.baseUrl, config.kernelId);
  const manager = new Manager(kernel);
  window.rummylab.manager = manager;
  kernel.onState = (state) => {
    document.body.classList.toggle("rl-stopped", state !== "back");
    if (state === "lost") status(say("The connection to the lesson was lost: trying again…"), "rl-lost");
    else if (state === "back") {
      status("");
      manager.loadAll().catch(console.error);  // what changed while the page was away
    } else {
      status(say("This lesson has stopped (its kernel is gone), so its buttons can do nothing now.") + " ", "rl-lost",
        true);
    }
  };
  await kernel.connect();
  await manager.loadAll();
  const models = () => [...manager.models.values()].map((entry) => entry.model).filter(Boolean);
  const theirs = models().map(foreign).filter(Boolean);
  if (theirs.length && toOwnPage(theirs)) return;
  manager.onModel = (model) => { if (foreign(model)) toOwnPage([foreign(model)]); };
  const slots = [...document.querySelectorAll(`script[type="${WIDGET_VIEW}"]`)];
  await Promise.all(slots.map(async (script) => {
    const { model_id: id } = JSON.parse(script.textContent);
    const holder = script.parentElement;
    if (!manager.models.get(id)?.model) { holder.replaceChildren(); return; }  // closed since the lesson ran
    const view = await render(await manager.model(id));
    holder.replaceChildren(view.el);
    holder.classList.add("rl-widget");
  }));
  if (!kernel.gone) status("");
  document.body.classList.add("rl-live");
}

window.rummylab = { start, status, manager: null };

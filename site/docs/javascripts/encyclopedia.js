// The encyclopedia's drawing: one block of a family, from the data its page embeds.
// Hover a part (or a value) for its card, click to pin the card, and where the family's
// blocks differ a slider picks the block. Static: no request leaves the page.
(function () {
  "use strict";

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "className") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(child);
    });
    return node;
  }

  function code(text) {
    return el("code", { text: text });
  }

  function reasonText(reason) {
    if (reason === null || reason === undefined) return "available";
    return "unavailable: " + reason;
  }

  function Drawing(mount, data) {
    this.mount = mount;
    this.data = data;
    this.block = 0;
    this.pinned = null;
    this.render();
  }

  Drawing.prototype.hostLabel = function (path, inBlock) {
    var top = inBlock ? "model.layers[" + this.block + "]" : "model";
    return path ? top + "." + path : top;
  };

  // The values drawn at one part: read at it, or served by it from inside its forward.
  Drawing.prototype.valuesAt = function (values, path) {
    return values.filter(function (row) {
      return row.part === path || (row.side === "inside" && row.host === path && row.part === path);
    });
  };

  Drawing.prototype.card = function (title, subtitle, rows, inBlock) {
    var self = this;
    var card = this.mount.querySelector(".ency-card");
    card.innerHTML = "";
    card.appendChild(el("div", { className: "ency-card-title" }, [code(title)]));
    if (subtitle) card.appendChild(el("div", { className: "ency-card-sub", text: subtitle }));
    if (!rows.length) {
      card.appendChild(el("div", { className: "ency-card-empty", text: "No value is read here." }));
    }
    rows.forEach(function (row) {
      var head = el("div", { className: "ency-card-value" }, [
        code(self.hostLabel(row.host, inBlock) + "." + row.value),
        row.layout ? el("span", { className: "ency-layout", text: " " + row.layout + " [" + row.dims.join(" ") + "]" }) : null,
      ]);
      var body = el("div", { className: "ency-card-body" }, [
        el("div", { text: row.description }),
        el("div", { className: "ency-readat", text: "read at " + row.read_at }),
        el("div", {
          className: row.reason ? "ency-unavailable" : "ency-available",
          text: "eager load: " + reasonText(row.reason) + (row.default_reason !== row.reason ? "; default load: " + reasonText(row.default_reason) : ""),
        }),
        row.rank !== null && row.rank !== undefined ? el("div", { className: "ency-rank", text: "read order rank " + row.rank }) : null,
      ]);
      card.appendChild(el("div", { className: "ency-card-row" + (row.reason ? " ency-lacks" : "") }, [head, body]));
    });
  };

  Drawing.prototype.show = function (target) {
    if (!target) return;
    var inBlock = target.getAttribute("data-scope") === "block";
    var values = inBlock ? this.data.blocks[this.block].values : this.data.root.values;
    var parts = inBlock ? this.data.blocks[this.block].parts : this.data.root.parts;
    var path = target.getAttribute("data-part");
    var valueName = target.getAttribute("data-value");
    if (valueName !== null) {
      var rows = values.filter(function (row) { return row.name === valueName; });
      this.card(this.hostLabel(valueName, inBlock), "a value", rows, inBlock);
      return;
    }
    var part = parts.filter(function (p) { return p.path === path; })[0];
    var subtitle = part
      ? "native " + part.native_path.replace(/^model\./, "model.") + " · " + part["class"] + (part.envoy ? " · envoy " + part.envoy : "")
      : "";
    this.card(this.hostLabel(path, inBlock), subtitle, this.valuesAt(values, path), inBlock);
  };

  Drawing.prototype.hoverable = function (node) {
    var self = this;
    node.classList.add("ency-hover");
    node.setAttribute("tabindex", "0");
    node.addEventListener("mouseenter", function () {
      if (!self.pinned) self.show(node);
    });
    node.addEventListener("focus", function () {
      if (!self.pinned) self.show(node);
    });
    node.addEventListener("click", function (event) {
      event.stopPropagation();
      var same = self.pinned === node;
      self.mount.querySelectorAll(".ency-pinned").forEach(function (n) { n.classList.remove("ency-pinned"); });
      self.pinned = same ? null : node;
      if (!same) {
        node.classList.add("ency-pinned");
        self.show(node);
      }
      self.mount.querySelector(".ency-card").classList.toggle("ency-card-pinned", !same);
    });
    return node;
  };

  Drawing.prototype.partBox = function (part, values, scope, children) {
    var self = this;
    var label = [el("span", { className: "ency-std", text: part.name || "block" })];
    if (part.native && part.native !== part.name && !/^\d+$/.test(part.native)) {
      label.push(el("span", { className: "ency-native", text: part.native }));
    }
    var chips = this.valuesAt(values, part.path).map(function (row) {
      var chip = el("span", { className: "ency-value ency-side-" + row.side + (row.reason ? " ency-lacks" : ""), "data-value": row.name, "data-scope": scope, text: row.value });
      return self.hoverable(chip);
    });
    var box = el("div", { className: "ency-part ency-depth-" + part.depth, "data-part": part.path, "data-scope": scope }, [
      el("div", { className: "ency-part-label" }, label),
      el("div", { className: "ency-class", text: part["class"] + (part.count ? " × " + part.count : "") }),
      chips.length ? el("div", { className: "ency-values" }, chips) : null,
      children && children.length ? el("div", { className: "ency-children" }, children) : null,
    ]);
    return this.hoverable(box);
  };

  Drawing.prototype.renderRoot = function () {
    var self = this;
    var root = this.data.root;
    var row = el("div", { className: "ency-root" });
    root.parts.forEach(function (part, i) {
      if (i) row.appendChild(el("span", { className: "ency-arrow", text: "→" }));
      row.appendChild(self.partBox(part, root.values, "root"));
    });
    var ends = root.values.filter(function (v) { return v.part === ""; });
    if (ends.length) {
      row.appendChild(el("span", { className: "ency-arrow", text: "→" }));
      row.appendChild(self.partBox({ path: "", name: "model", native: "", "class": root["class"], depth: 0 }, root.values, "root"));
    }
    return row;
  };

  Drawing.prototype.renderBlock = function () {
    var self = this;
    var block = this.data.blocks[this.block];
    var holder = el("div", { className: "ency-block", "data-block": String(this.block) });
    var top = block.parts.filter(function (p) { return p.depth === 0; })[0];
    var inputs = block.values.filter(function (v) { return v.part === "" && v.side === "input"; });
    var outputs = block.values.filter(function (v) { return v.part === "" && v.side !== "input"; });
    function port(rows, text) {
      return el("div", { className: "ency-port" }, [el("span", { className: "ency-port-label", text: text })].concat(
        rows.map(function (row) {
          return self.hoverable(el("span", { className: "ency-value" + (row.reason ? " ency-lacks" : ""), "data-value": row.name, "data-scope": "block", text: row.value }));
        })
      ));
    }
    holder.appendChild(port(inputs, "model.layers[" + this.block + "] · " + block["class"] + " · in:"));
    block.parts.filter(function (p) { return p.depth === 1; }).forEach(function (part) {
      var kids = block.parts
        .filter(function (p) { return p.depth === 2 && p.path.indexOf(part.path + ".") === 0; })
        .map(function (kid) { return self.partBox(kid, block.values, "block"); });
      holder.appendChild(self.partBox(part, block.values, "block", kids));
    });
    holder.appendChild(port(outputs, "out:"));
    var has = function (name) {
      return block.values.some(function (v) { return v.name === name && !v.reason; });
    };
    if (has("layer_input") && has("self_attn.attention_output") && has("mlp.mlp_output") && has("layer_output")) {
      holder.appendChild(el("div", { className: "ency-identity" }, [
        el("span", { text: "identity " }),
        code("layer_input + self_attn.attention_output + mlp.mlp_output == layer_output"),
      ]));
    }
    if (top) holder.setAttribute("data-native", top.native_path);
    return holder;
  };

  Drawing.prototype.kindOf = function (index) {
    var kinds = this.data.kinds || [];
    for (var i = 0; i < kinds.length; i++) {
      if (kinds[i].blocks.indexOf(index) >= 0) return kinds[i].label;
    }
    return "";
  };

  Drawing.prototype.renderBlockArea = function () {
    var area = this.mount.querySelector(".ency-block-area");
    area.innerHTML = "";
    this.pinned = null;
    this.mount.querySelector(".ency-card").classList.remove("ency-card-pinned");
    var label = this.mount.querySelector(".ency-block-label");
    var kind = this.kindOf(this.block);
    label.textContent = "block i = " + this.block + (kind ? " · " + kind : "");
    area.appendChild(this.renderBlock());
    var first = area.querySelector(".ency-part");
    this.card("model.layers[" + this.block + "]", "Hover a part for its nnterp name; click to pin the card.", [], true);
    return first;
  };

  Drawing.prototype.render = function () {
    var self = this;
    var data = this.data;
    this.mount.innerHTML = "";
    this.mount.appendChild(this.renderRoot());
    var controls = el("div", { className: "ency-controls" }, [el("span", { className: "ency-block-label" })]);
    if (this.mount.getAttribute("data-blocks-differ") === "true" && data.blocks.length > 1) {
      var slider = el("input", { type: "range", min: "0", max: String(data.blocks.length - 1), value: "0", step: "1", className: "ency-slider", "aria-label": "block" });
      slider.addEventListener("input", function () {
        self.block = parseInt(slider.value, 10);
        self.renderBlockArea();
      });
      controls.insertBefore(slider, controls.firstChild);
    }
    this.mount.appendChild(controls);
    var body = el("div", { className: "ency-body" }, [el("div", { className: "ency-block-area" }), el("div", { className: "ency-card", "aria-live": "polite" })]);
    this.mount.appendChild(body);
    this.renderBlockArea();
  };

  function start() {
    document.querySelectorAll(".nnterp-ency").forEach(function (mount) {
      if (mount.getAttribute("data-ready")) return;
      var family = mount.getAttribute("data-family");
      var source = document.querySelector('script.nnterp-ency-data[data-family="' + family + '"]');
      if (!source) return;
      var data = JSON.parse(source.textContent);
      if (!data.blocks || !data.blocks.length) return;
      new Drawing(mount, data);
      mount.setAttribute("data-ready", "true");
    });
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(start);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

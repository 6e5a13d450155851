// The page around RoPE Explorer's WebAssembly app: what the app asks of the page (downloads, a file
// picker, its address), what the page tells the app (files picked or dropped, the address changed, a
// pinch), and window.ropeExplorer for a page that embeds it. Everything is in this one file: nothing
// is loaded from anywhere.
'use strict';
var Module = (function () {
  var canvas = document.getElementById('canvas');
  var loading = document.getElementById('loading');
  var started = false;

  function call(name, type, argTypes, args) { return Module.ccall(name, type, argTypes || [], args || []); }

  // The address: rewritten as the state changes, a few times a second at most.
  var pendingAddress = null, addressTimer = 0, lastAddress = null;
  function writeAddress() {
    addressTimer = 0;
    if (pendingAddress === null || pendingAddress === lastAddress) return;
    lastAddress = pendingAddress;
    var url = location.href.replace(/#.*$/, '') + (pendingAddress ? '#' + pendingAddress : '');
    try { history.replaceState(history.state, '', url); } catch (e) { /* a sandboxed frame may refuse */ }
  }
  window.addEventListener('hashchange', function () {
    var fragment = location.hash.replace(/^#/, '');
    if (!started || fragment === lastAddress) return;
    lastAddress = fragment;
    call('rope_web_apply_address', 'string', ['string'], [fragment]);
  });

  // Files: the page's file system holds them while the app reads them.
  function intoFiles(file, then) {
    var reader = new FileReader();
    reader.onload = function () {
      try { Module.FS.mkdir('/picked'); } catch (e) { /* there already */ }
      var path = '/picked/' + file.name.replace(/\//g, '_');
      Module.FS.writeFile(path, new Uint8Array(reader.result));
      then(path);
    };
    reader.readAsArrayBuffer(file);
  }
  function pickFile(accept, asB) {
    var input = document.createElement('input');
    input.type = 'file';
    if (accept) input.accept = accept;
    input.onchange = function () {
      if (input.files.length) intoFiles(input.files[0], function (path) { call('rope_web_open', null, ['string', 'number'], [path, asB ? 1 : 0]); });
    };
    input.click();
  }
  function save(bytes, name, type) {
    var url = URL.createObjectURL(new Blob([bytes], { type: type || 'application/octet-stream' }));
    var a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  // PNG text chunks (iTXt: UTF-8) inserted after IHDR, as the desktop's libpng writes them.
  var crcTable = null;
  function crc32(bytes) {
    if (!crcTable) {
      crcTable = new Uint32Array(256);
      for (var n = 0; n < 256; ++n) { var c = n; for (var k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; crcTable[n] = c >>> 0; }
    }
    var crc = 0xffffffff;
    for (var i = 0; i < bytes.length; ++i) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
  }
  function chunk(type, data) {
    var out = new Uint8Array(12 + data.length), view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    for (var i = 0; i < 4; ++i) out[4 + i] = type.charCodeAt(i);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  }
  function withText(png, pairs, dpi) {
    var enc = new TextEncoder(), parts = [png.subarray(0, 33)];  // signature and IHDR
    pairs.forEach(function (kv) {
      var key = enc.encode(kv[0]), text = enc.encode(kv[1]);
      var data = new Uint8Array(key.length + 5 + text.length);
      data.set(key, 0);  // keyword, 0, no compression, method 0, no language, no translated keyword
      data.set(text, key.length + 5);
      parts.push(chunk('iTXt', data));
    });
    var ppm = Math.round(dpi / 0.0254), phys = new Uint8Array(9), pv = new DataView(phys.buffer);
    pv.setUint32(0, ppm); pv.setUint32(4, ppm); phys[8] = 1;
    parts.push(chunk('pHYs', phys));
    parts.push(png.subarray(33));
    var size = parts.reduce(function (s, p) { return s + p.length; }, 0), out = new Uint8Array(size), at = 0;
    parts.forEach(function (p) { out.set(p, at); at += p.length; });
    return out;
  }
  // The browser draws the app's SVG at the PNG's size; its text chunks come beside it.
  function pngFromSvg(path, name) {
    var svg = Module.FS.readFile(path, { encoding: 'utf8' });
    var side = JSON.parse(Module.FS.readFile(path + '.text', { encoding: 'utf8' }));
    var image = new Image();
    image.onload = function () {
      var c = document.createElement('canvas');
      c.width = side.width;
      c.height = side.height;
      c.getContext('2d').drawImage(image, 0, 0, side.width, side.height);
      c.toBlob(function (blob) {
        blob.arrayBuffer().then(function (buffer) { save(withText(new Uint8Array(buffer), side.text, side.dpi), name, 'image/png'); });
      }, 'image/png');
    };
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
  }

  // Touch. One finger is the mouse's left button, passed on by the page itself (emscripten's GLFW
  // would press without moving the pointer and never follow the finger): it hovers where it lands;
  // moving past a few pixels presses where it landed and drags (a slider, a plot's pan, a vector),
  // except that a mostly vertical swipe over a list or text that scrolls scrolls it; on a small
  // screen a sideways swipe over the page tabs or a panel's header moves to the next or previous
  // panel, and one in from the left edge opens the controls' drawer; a quick lift is a tap (a click);
  // a still finger held longer is a long press (what hover shows, no click). When it lifts the
  // pointer leaves, so no tooltip stays; a cancelled touch (the browser took it) clicks nothing. Two
  // fingers over a zoomable picture (the heatmap) zoom it as the wheel does; elsewhere the browser
  // zooms the page.
  var kSlop = 8, kLongPress = 500, kFlip = 48, kEdge = 24;  // CSS px, ms, CSS px, CSS px
  var finger = null, pinch = null;
  function touchPoint(t) {
    var r = canvas.getBoundingClientRect(), k = canvas.width / r.width;
    return { x: (t.clientX - r.left) * k, y: (t.clientY - r.top) * k, cssX: t.clientX, cssY: t.clientY };
  }
  function midAndSpread(touches) {
    var a = touchPoint(touches[0]), b = touchPoint(touches[1]);
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
  }
  function touch(phase, at) { call('rope_web_touch', null, ['number', 'number', 'number'], [phase, at.x, at.y]); }
  function fingerOf(list) {
    for (var i = 0; finger && i < list.length; ++i) if (list[i].identifier === finger.id) return list[i];
    return null;
  }
  // `when`: the lift's event time. A long press is a finger held kLongPress both by the events' own
  // times and by when the page handled them, not a timer's: on a slow page (a phone, the checked
  // build) a frame can hold the main thread past a timer while a quick tap's lift waits its turn, and
  // a touch's start can wait as long before the page sees it; only a finger truly held is both.
  function endFinger(at, lifted, when) {
    if (!finger) return;
    var held = when !== undefined && Math.min(when - finger.since, performance.now() - finger.handled) >= kLongPress;
    var dx = (at || finger.at).cssX - finger.start.cssX;
    if (finger.mode === 'press') touch(lifted ? 2 : 5, at || finger.at);
    else if (finger.mode === 'flip' && lifted && Math.abs(dx) >= kFlip) call('rope_web_flip', null, ['number'], [dx < 0 ? 1 : -1]);
    else if (finger.mode === 'edge' && lifted && dx >= kFlip) call('rope_web_open_drawer', null, [], []);
    else if (finger.mode === 'hover' && lifted && !held) {  // a tap
      if (finger.types) willType();
      touch(0, finger.start);
      touch(2, finger.start);
    }
    else touch(4, at || finger.at);
    finger = null;
  }
  window.addEventListener('touchstart', function (e) {
    if (!started || e.target !== canvas) return;
    e.stopPropagation();  // the page passes touches on itself
    if (e.touches.length === 2) {
      endFinger(null, false);
      var mid = midAndSpread(e.touches);
      pinch = (call('rope_web_touch_target', 'number', ['number', 'number'], [mid.x, mid.y]) & 3) === 2 ? mid : null;
      if (pinch && e.cancelable) e.preventDefault();  // a pinch over the heatmap is the heatmap's
      return;
    }
    if (e.touches.length !== 1) { endFinger(null, false); return; }
    var t = e.changedTouches[0], at = touchPoint(t);
    var target = call('rope_web_touch_target', 'number', ['number', 'number'], [at.x, at.y]);
    var r = canvas.getBoundingClientRect();
    finger = { id: t.identifier, start: at, at: at, mode: 'hover', since: e.timeStamp, handled: performance.now(), scrolls: (target & 3) === 1,
               flips: (target & 3) === 3, edge: (target & 4) !== 0 && at.cssX - r.left < kEdge, types: (target & 8) !== 0 };
    touch(3, at);
  }, { capture: true, passive: false });
  window.addEventListener('touchmove', function (e) {
    if (!started) return;
    if (pinch && e.touches.length === 2) {
      e.stopPropagation();
      if (e.cancelable) e.preventDefault();
      var now = midAndSpread(e.touches);
      if (pinch.d > 0 && now.d > 0) call('rope_web_pinch', null, ['number', 'number', 'number'], [now.x, now.y, now.d / pinch.d]);
      pinch = now;
      return;
    }
    var t = fingerOf(e.changedTouches);
    if (!t) return;
    e.stopPropagation();
    if (e.cancelable) e.preventDefault();
    var at = touchPoint(t), dx = at.cssX - finger.start.cssX, dy = at.cssY - finger.start.cssY;
    if (finger.mode === 'hover' && Math.hypot(dx, dy) > kSlop) {
      var sideways = Math.abs(dx) > Math.abs(dy);
      if (finger.edge && sideways && dx > 0) { finger.mode = 'edge'; touch(4, at); }
      else if (finger.flips && sideways) { finger.mode = 'flip'; touch(4, at); }
      else if (finger.scrolls && !sideways) finger.mode = 'swipe';
      else { finger.mode = 'press'; touch(0, finger.start); }
    }
    if (finger.mode === 'edge' || finger.mode === 'flip') { finger.at = at; return; }
    if (finger.mode === 'swipe') call('rope_web_swipe', null, ['number', 'number', 'number'], [at.x, at.y, at.y - finger.at.y]);
    else if (finger.mode === 'press') touch(1, at);
    else touch(3, at);
    finger.at = at;
  }, { capture: true, passive: false });
  function touchEnded(e) {
    if (e.touches.length < 2) pinch = null;
    var t = fingerOf(e.changedTouches);
    if (t) endFinger(touchPoint(t), e.type === 'touchend', e.timeStamp);
    if (e.target === canvas) {
      e.stopPropagation();
      // no mouse events made up after a tap: they would press the same button again
      if (e.cancelable) e.preventDefault();
    }
  }
  window.addEventListener('touchend', touchEnded, { capture: true, passive: false });
  window.addEventListener('touchcancel', touchEnded, { capture: true, passive: false });

  // Typing on a phone: its on-screen keyboard opens only for a text field of the page's own, and sends
  // its text as input events, not as keys. While a text field of the app has the keyboard (a
  // slider's Type, a file name, the lesson editor), the page's hidden field has the focus: a real
  // keyboard's keys still reach the app as before (emscripten's GLFW takes them first, on the window)
  // and are kept out of the field; what an on-screen keyboard puts in the field is passed on as
  // characters, and its delete key as Backspace. The field keeps one space, so that there is always
  // something for that delete key to delete.
  var typingField = document.getElementById('typing');
  var kKept = ' ';
  function resetTypingField() { typingField.value = kKept; typingField.setSelectionRange(1, 1); }
  typingField.addEventListener('keypress', function (e) { e.preventDefault(); });  // the app has the character
  typingField.addEventListener('input', function () {
    // the kept space gone: the delete key (whatever else the field holds is new text)
    var v = typingField.value, at = v.indexOf(kKept);
    var text = at >= 0 ? v.slice(0, at) + v.slice(at + 1) : v, erased = at >= 0 ? 0 : 1;
    resetTypingField();
    if (text || erased) call('rope_web_text', null, ['string', 'number'], [text, erased]);
  });
  typingField.addEventListener('blur', function () {
    if (typingNow) setTimeout(function () { if (typingNow && document.activeElement !== typingField) canvas.focus(); }, 0);
  });
  var typingNow = false;
  // A tap on what starts typing: the field takes the focus now, within the tap (a phone opens its
  // keyboard only then), and gives it back if the app did not start typing after all.
  function willType() {
    resetTypingField();
    typingField.focus({ preventScroll: true });
    setTimeout(function () { if (!typingNow && document.activeElement === typingField) canvas.focus({ preventScroll: true }); }, 500);
  }
  function typing(on) {
    typingNow = on;
    if (on) {
      resetTypingField();
      typingField.focus({ preventScroll: true });
    } else if (document.activeElement === typingField) {
      canvas.focus({ preventScroll: true });
    }
  }

  // The document for screen readers beside the canvas (app/gui/app/reader_document.hpp says what it
  // holds): the app sends it as JSON when it changed, at most twice a second, and the elements are
  // updated in place (an element that has the focus keeps it). What people do in it goes back as
  // the ImGui control's action: one undo step each. Keys pressed in it are its own: the app's
  // shortcuts (emscripten's GLFW listens on the window) never see them. Tab on the canvas moves on
  // into it, except while presenting, where Tab is the app's (the next panels; P ends presenting).
  var reader = document.getElementById('reader');
  var readerState = { presenting: false, live: '' };
  function readerDo(request) { if (started) call('rope_web_reader_do', null, ['string'], [JSON.stringify(request)]); }
  ['keydown', 'keypress', 'keyup'].forEach(function (type) {
    window.addEventListener(type, function (e) {
      if (reader.contains(e.target)) { e.stopImmediatePropagation(); return; }
      if (e.target === canvas && e.key === 'Tab' && !typingNow && !readerState.presenting && !e.ctrlKey && !e.altKey && !e.metaKey)
        e.stopImmediatePropagation();  // the browser moves the focus
    }, true);
  });
  // The child of `parent` with this id, made by `make` if there is none, at place `index`.
  function element(parent, index, id, make) {
    var el = document.getElementById(id);
    if (!el) { el = make(); el.id = id; }
    if (parent.children[index] !== el) parent.insertBefore(el, parent.children[index] || null);
    return el;
  }
  function trim(parent, count) { while (parent.children.length > count) parent.removeChild(parent.lastElementChild); }
  function make(tag, attributes, text) {
    var el = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (k) { el.setAttribute(k, attributes[k]); });
    if (text !== undefined) el.textContent = text;
    return el;
  }
  function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
  function setAttr(el, name, value) { if (el.getAttribute(name) !== String(value)) el.setAttribute(name, value); }
  function button(parent, index, id, label, request) {
    var b = element(parent, index, id, function () { return make('button', { type: 'button' }); });
    setText(b, label);
    b.onclick = function () { readerDo(request); };
    return b;
  }
  function section(index, id, title) {
    var s = element(reader, index, id, function () {
      var el = make('section', { 'aria-labelledby': id + '-h' });
      el.appendChild(make('h2', { id: id + '-h' }));
      return el;
    });
    setText(s.firstElementChild, title);
    return s;
  }
  function readerControl(parent, index, c) {
    var id = 'reader-' + c.key;
    var kind = c.kind === 'range' ? 'range' : c.kind === 'checkbox' ? 'checkbox' : c.kind === 'select' ? 'select' : 'text';
    var label = element(parent, index, id + '-label', function () { return make('label', { for: id }); });
    var input = document.getElementById(id);
    if (input && input.dataset.kind !== kind) { input.remove(); input = null; }
    if (!input) {
      input = kind === 'select' ? make('select') : make('input', { type: kind });
      input.id = id;
      input.dataset.kind = kind;
      label.appendChild(input);
    }
    if (label.firstChild.nodeType !== 3) label.insertBefore(document.createTextNode(''), label.firstChild);
    if (label.firstChild.data !== c.label + ' ') label.firstChild.data = c.label + ' ';
    if (kind === 'range') {  // the value in sight (a screen reader has it from the slider)
      var shown = label.querySelector('span') || label.insertBefore(make('span', { 'aria-hidden': 'true' }), input);
      setText(shown, '= ' + c.valuetext);
    }
    setAttr(input, 'title', c.help);
    if (kind === 'range') {
      setAttr(input, 'min', c.min); setAttr(input, 'max', c.max); setAttr(input, 'step', c.step);
      if (document.activeElement !== input || Number(input.value) !== c.value) input.value = c.value;
      setAttr(input, 'aria-valuetext', c.valuetext);
      input.oninput = function () {
        var v = Number(input.value);
        if (c.scale === 'log') v = Number(Math.pow(10, v).toPrecision(3));
        if (c.integer) v = Math.round(v);
        readerDo({ set: c.key, value: String(v) });
      };
    } else if (kind === 'select') {
      var values = c.options.map(function (o) { return o.value; }).join('\n');
      if (input.dataset.values !== values) {
        input.textContent = '';
        c.options.forEach(function (o) { input.appendChild(make('option', { value: o.value }, o.label)); });
        input.dataset.values = values;
      }
      if (input.value !== c.value) input.value = c.value;
      input.onchange = function () { readerDo({ set: c.key, value: input.value }); };
    } else if (kind === 'checkbox') {
      input.checked = c.checked;
      input.onchange = function () { readerDo({ set: c.key, value: input.checked ? 'true' : 'false' }); };
    } else {
      if (document.activeElement !== input) input.value = c.value;
      input.onchange = function () { readerDo({ set: c.key, value: input.value || 'none' }); };
    }
  }
  function readerControls(doc) {
    var s = section(1, 'reader-controls', 'Controls');
    var bar = element(s, 1, 'reader-toolbar', function () { return make('div', { role: 'group', 'aria-label': 'Teach' }); });
    doc.toolbar.forEach(function (t, i) {
      var b = button(bar, i, 'reader-do-' + t.do, t.label, { do: t.do });
      b.disabled = !t.enabled;
    });
    doc.controls.forEach(function (group, g) {
      var fs = element(s, 2 + g, 'reader-section-' + group.title.replace(/\W+/g, '-'), function () {
        var el = make('fieldset');
        el.appendChild(make('legend'));
        return el;
      });
      setText(fs.firstElementChild, group.title);
      group.items.forEach(function (c, i) { readerControl(fs, 1 + i, c); });
      trim(fs, 1 + group.items.length);
    });
    var themes = element(s, 2 + doc.controls.length, 'reader-view', function () {
      var el = make('fieldset');
      el.appendChild(make('legend', {}, 'View'));
      return el;
    });
    readerControl(themes, 1, { key: 'theme', kind: 'select', label: 'colour theme', help: 'The colours of the pictures and the controls.',
                                value: doc.theme, options: [{ value: 'dark', label: 'dark' }, { value: 'light', label: 'light' },
                                                            { value: 'high_contrast', label: 'high contrast' }] });
    document.getElementById('reader-theme').onchange = function () { readerDo({ theme: this.value }); };
    trim(s, 3 + doc.controls.length);
  }
  function readerPages(doc) {
    var nav = element(reader, 2, 'reader-pages', function () { return make('nav', { 'aria-label': 'Pages' }); });
    var list = element(nav, 0, 'reader-tablist', function () { return make('div', { role: 'tablist', 'aria-label': 'Pages of figures' }); });
    doc.pages.forEach(function (p, i) {
      var tab = button(list, i, 'reader-tab-' + i, p.name, { page: i });
      setAttr(tab, 'role', 'tab');
      setAttr(tab, 'aria-selected', p.selected ? 'true' : 'false');
      setAttr(tab, 'aria-controls', 'reader-figures');
      tab.tabIndex = p.selected ? 0 : -1;
      tab.onkeydown = function (e) {  // the arrows move between the tabs and show each page
        var to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: doc.pages.length - 1 }[e.key];
        if (to === undefined) return;
        e.preventDefault();
        to = (to + doc.pages.length) % doc.pages.length;
        readerDo({ page: to });
        document.getElementById('reader-tab-' + to).focus();
      };
    });
    trim(list, doc.pages.length);
  }
  function readerTable(parent, index, id, t) {
    if (!t || !t.columns.length) { var old = document.getElementById(id); if (old) old.remove(); return; }
    var table = element(parent, index, id, function () { return make('table'); });
    table.textContent = '';
    table.appendChild(make('caption', {}, 'Its numbers: ' + t.rows.length + ' of ' + t.all_rows + ' rows (Save the numbers writes them all as CSV)'));
    var head = make('tr');
    t.columns.forEach(function (c) { head.appendChild(make('th', { scope: 'col' }, c)); });
    table.appendChild(make('thead')).appendChild(head);
    var body = table.appendChild(make('tbody'));
    t.rows.forEach(function (r) {
      var tr = body.appendChild(make('tr'));
      r.forEach(function (cell) { tr.appendChild(make('td', {}, cell)); });
    });
  }
  function readerFigures(doc) {
    var s = section(3, 'reader-figures', 'Figures on this page');
    setAttr(s, 'role', 'tabpanel');
    var selected = doc.pages.findIndex(function (p) { return p.selected; });
    setAttr(s, 'aria-labelledby', 'reader-tab-' + Math.max(0, selected));
    doc.panels.forEach(function (p, i) {
      var id = 'reader-figure-' + p.name;
      var fig = element(s, 1 + i, id, function () {
        var el = make('figure', { 'aria-labelledby': id + '-caption' });
        el.appendChild(make('figcaption', { id: id + '-caption' }));
        el.appendChild(make('p'));
        el.appendChild(make('div', { role: 'group', 'aria-label': 'Panel' }));
        return el;
      });
      setText(fig.children[0], p.title);
      setText(fig.children[1], p.alt);
      var bar = fig.children[2];
      setAttr(bar, 'aria-label', p.title);
      var max = button(bar, 0, id + '-maximise', 'Maximise ' + p.title + (p.key ? ' (key ' + p.key + ')' : ''), { maximise: p.index });
      setAttr(max, 'aria-pressed', p.maximised ? 'true' : 'false');
      var buttons = 1;
      if (!doc.embedded) {  // written at once with the export dialog's defaults: the dialog is drawn in the canvas
        button(bar, buttons++, id + '-export', 'Save ' + p.title + ' as PNG', { export: p.index });
        var numbers = p.table && p.table.columns.length;
        if (numbers) button(bar, buttons++, id + '-numbers', 'Save the numbers of ' + p.title + ' as CSV', { numbers: p.index });
        else { var gone = document.getElementById(id + '-numbers'); if (gone) gone.remove(); }
        button(bar, buttons++, id + '-record', 'Record ' + p.title + ' as an animation', { record: p.index });
      }
      trim(bar, buttons);
      readerTable(fig, 3, id + '-table', p.table);
    });
    trim(s, 1 + doc.panels.length);
  }
  function readerLesson(doc) {
    var l = doc.lesson, old = document.getElementById('reader-lesson');
    if (!l) { if (old) old.remove(); return; }
    var s = section(4, 'reader-lesson', 'Lesson step ' + l.step + ' of ' + l.steps + ': ' + l.title);
    var text = element(s, 1, 'reader-lesson-text', function () { return make('div'); });
    if (text.dataset.text !== l.text) {
      text.textContent = '';
      l.text.split(/\n+/).forEach(function (para) { text.appendChild(make('p', {}, para)); });
      text.dataset.text = l.text;
    }
    var at = 2, q = l.question;
    if (q && q.choices.length) {
      var fs = element(s, at++, 'reader-question', function () { var el = make('fieldset'); el.appendChild(make('legend')); return el; });
      setText(fs.firstElementChild, q.ask);
      q.choices.forEach(function (choice, i) {
        var label = element(fs, 1 + i, 'reader-choice-' + i + '-label', function () {
          var el = make('label');
          var radio = make('input', { type: 'radio', name: 'reader-choice', id: 'reader-choice-' + i });
          radio.onchange = function () { if (radio.checked) readerDo({ guess: i }); };
          el.appendChild(radio);
          el.appendChild(document.createTextNode(''));
          return el;
        });
        label.lastChild.data = ' ' + choice;
        label.firstChild.checked = q.guess === i;
      });
      trim(fs, 1 + q.choices.length);
    } else if (q) {
      var ask = element(s, at++, 'reader-question', function () { return make('p'); });
      setText(ask, q.ask);
    } else {
      var none = document.getElementById('reader-question');
      if (none) none.remove();
    }
    if (q && q.asking) button(s, at++, 'reader-reveal', 'Reveal the answer', { lesson: 'reveal' });
    else if (q) { var answer = element(s, at++, 'reader-answer', function () { return make('p'); }); setText(answer, q.answer); }
    var nav = element(s, at++, 'reader-lesson-nav', function () { return make('div', { role: 'group', 'aria-label': 'Lesson' }); });
    button(nav, 0, 'reader-lesson-back', 'Back', { lesson: 'back' }).disabled = l.step <= 1;
    button(nav, 1, 'reader-lesson-next', q && q.asking ? 'Reveal and go on' : 'Next step', { lesson: 'next' });
    button(nav, 2, 'reader-lesson-close', 'Close the lesson', { lesson: 'close' });
    trim(s, at);
  }
  function showReader(json) {
    var doc = JSON.parse(json);
    readerState.presenting = doc.presenting;
    reader.className = doc.theme;
    setText(document.getElementById('reader-title'), doc.title);
    if (document.title !== doc.title) document.title = doc.title;
    readerControls(doc);
    readerPages(doc);
    readerFigures(doc);
    readerLesson(doc);
    var live = document.getElementById('reader-live');
    if (!live) live = make('div', { id: 'reader-live', role: 'status', 'aria-live': 'polite' });
    if (reader.lastElementChild !== live) reader.appendChild(live);  // last, always
    if (doc.live !== readerState.live) { readerState.live = doc.live; live.textContent = doc.live; }
  }

  // Full screen (presentation mode): the browser allows it only while handling a key or a click, so
  // the page asks at the next one; leaving it (Esc, the browser's own control) stops asking.
  var wantFullscreen = false;
  function enterFullscreen() {
    if (!wantFullscreen || document.fullscreenElement || !document.documentElement.requestFullscreen) return;
    document.documentElement.requestFullscreen().catch(function () { /* refused: asked again at the next one */ });
  }
  document.addEventListener('fullscreenchange', function () { if (!document.fullscreenElement) wantFullscreen = false; });
  window.addEventListener('mousedown', enterFullscreen, true);
  window.addEventListener('touchend', enterFullscreen, true);

  // Keys the app takes that the browser would otherwise take (save page, open file, find, print).
  window.addEventListener('keydown', function (e) {
    enterFullscreen();
    var key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if ((e.ctrlKey || e.metaKey) && 'soyzrepkl'.indexOf(key) >= 0) e.preventDefault();
    // Ctrl+= / Ctrl+- / Ctrl+0 are the browser's zoom here (the page follows its CSS pixels): the
    // desktop's UI zoom would scale the app a second time
    if ((e.ctrlKey || e.metaKey) && '=+-0'.indexOf(key) >= 0) { e.stopPropagation(); return; }
    if (/^F([1-9]|1[0-2])$/.test(e.key) || e.key === 'PageDown' || e.key === 'PageUp' || e.key === ' ') e.preventDefault();
  }, true);
  canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });

  var page = {
    started: function () {
      started = true;
      loading.hidden = true;
      if (window.matchMedia) {  // a finger is the main pointer: targets a thumb can hit, no key hints
        var coarse = matchMedia('(pointer: coarse)');
        var tell = function () { call('rope_web_touch_screen', null, ['number'], [coarse.matches ? 1 : 0]); };
        tell();
        if (coarse.addEventListener) coarse.addEventListener('change', tell);
        // less motion (the system's setting): Play starts only when asked, nothing fades or blinks
        var still = matchMedia('(prefers-reduced-motion: reduce)');
        var tellMotion = function () { call('rope_web_reduced_motion', null, ['number'], [still.matches ? 1 : 0]); };
        if (still.matches) tellMotion();  // else the session's own setting stands
        if (still.addEventListener) still.addEventListener('change', tellMotion);
      }
      canvas.focus();
    },
    failed: function (why) {
      loading.hidden = false;
      document.getElementById('failure').textContent = why;
    },
    addressChanged: function (fragment) {
      pendingAddress = fragment;
      if (!addressTimer) addressTimer = setTimeout(writeAddress, 250);
    },
    download: function (path, name, type) {
      if (type === 'png-from-svg') return pngFromSvg(path, name);
      save(Module.FS.readFile(path), name, type);
    },
    pickFile: pickFile,
    typing: typing,
    reader: showReader,
    fullscreen: function (on) {
      wantFullscreen = on;
      if (!on && document.fullscreenElement) document.exitFullscreen().catch(function () {});
    },
  };

  // The app's own functions, once it has started (before then its WebAssembly may not even be
  // running): a clear error instead of one from deep inside the runtime.
  function whenStarted(name) {
    if (!started) throw new Error('RoPE Explorer has not started yet: ropeExplorer.' + name + '() works once ropeExplorer.ready() is true');
  }

  // For a page that embeds the app: drive it from its prose.
  window.ropeExplorer = {
    // true once every visible panel shows its final picture
    ready: function () { return started && call('rope_web_ready', 'number') === 1; },
    // the session, as a desktop session file holds it
    session: function () { whenStarted('session'); return JSON.parse(call('rope_web_session', 'string')); },
    // set('base', 500000) or set({base: 500000, position: 1000}): one undo step; the refusals, one
    // line each ('' when everything applied)
    set: function (key, value) {
      whenStarted('set');
      var values = typeof key === 'object' ? key : (function () { var o = {}; o[key] = value; return o; })();
      return call('rope_web_set', 'string', ['string'], [JSON.stringify(values)]);
    },
    // the frame benchmark's report (#bench-frames=N&sweep=KEY), as the desktop prints it; '' until done
    bench: function () { return started ? call('rope_web_bench', 'string') : ''; },
    // the numbers behind a figure (its name: 'heatmap', ...) at width x height, as the CSV export holds them
    table: function (figure, width, height) {
      whenStarted('table');
      return call('rope_web_csv', 'string', ['string', 'number', 'number'], [figure, width || 800, height || 480]);
    },
    // where everything is on screen now, in CSS pixels: the frame, each shown window, each shown panel
    // with its picture, its plots' data areas and frames (role 'main' for the figure's subject) and
    // its picture's texts (box and size)
    layout: function () {
      whenStarted('layout');
      return JSON.parse(call('rope_web_layout', 'string', ['number'], [window.devicePixelRatio || 1]));
    },
    // the address that reopens what is shown now
    link: function () {
      whenStarted('link');
      var fragment = call('rope_web_address', 'string');
      return location.href.replace(/#.*$/, '') + (fragment ? '#' + fragment : '');
    },
  };

  return {
    canvas: canvas,
    ropePage: page,
    print: function (text) { console.log(text); },
    printErr: function (text) { console.warn(text); },
    onAbort: function (what) { page.failed('RoPE Explorer stopped: ' + what); },
  };
})();

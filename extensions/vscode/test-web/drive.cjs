// Drives code-server (VS Code in the browser) in headless Chromium with
// playwright-core, for tests/vscode_web_e2e.sh: opens a CUDA file whose text
// equals its git HEAD (so no forecast), checks that no kforecast hint shows,
// replaces the whole text with a faster version (clipboard paste, as a user
// would), and waits for the kforecast inlay hint ("≈… faster · …") on the line that
// opens the kernel's body and for the code lens saying the same, then reads the
// Quick Fix and Source Action menus at the kernel (code action kinds).
// With KF_SCREENSHOT set it then hovers the kernel name and saves a screenshot.
//
// Environment (all set by tests/vscode_web_e2e.sh):
//   KF_PLAYWRIGHT   path of the playwright-core package folder
//   KF_CHROMIUM     Chromium executable (default /usr/bin/chromium)
//   KF_PROFILE      fresh Chromium user-data-dir
//   KF_URL          code-server URL with ?folder=…
//   KF_OPEN         file name to open through Quick Open (e.g. transpose.cu)
//   KF_KERNEL       kernel name to look for (e.g. transpose)
//   KF_NEW_TEXT     file whose content replaces the editor's text
//   KF_TIMEOUT_MS   per-step timeout (default 60000)
//   KF_DECL_OPEN, KF_DECL_KERNEL, KF_DECL_NEW_TEXT, KF_DECL_MARKER  optional: a file whose
//                   kernel has no declaration, its kernel, its edited text and a piece of
//                   that text the original lacks (the declaration quick fix);
//                   KF_LOGS: code-server's log folder (the kforecast output channel)
//   KF_SCREENSHOT   optional PNG path; KF_WIDTH / KF_HEIGHT: the viewport (1280x800);
//                   KF_SCREENSHOT_PLAIN: another PNG path, taken before the hover opens;
//                   KF_HOVER_GROW: pixels to drag the hover's bottom edge down (260)
//   KF_ARTIFACTS    optional folder for a failure screenshot and page text
'use strict';

const fs = require('fs');
const path = require('path');

const env = (name, fallback) => {
  const v = process.env[name];
  if (v === undefined || v === '') {
    if (fallback === undefined) throw new Error(`${name} is not set`);
    return fallback;
  }
  return v;
};

const { chromium } = require(env('KF_PLAYWRIGHT'));
const TIMEOUT = Number(env('KF_TIMEOUT_MS', '60000'));
const t0 = Date.now();
const log = (msg) => process.stderr.write(`vscode_web_e2e: [${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);

class Failure extends Error {}

async function step(what, fn) {
  try {
    return await fn();
  } catch (e) {
    throw new Failure(`${what}: ${e && e.message ? e.message.split('\n')[0] : e}`);
  }
}

// Text of the rendered editor lines (Monaco renders only what is visible).
const viewLines = (page) =>
  page.$$eval('.editor-instance .monaco-editor .view-line', (ls) => ls.map((l) => l.textContent.replace(/\u00a0/g, ' ')));

// Inlay hints are injected text: spans with a generated `dyn-rule-*` class
// inside the view line, after the document's own text.
const hintTexts = (page) =>
  page.$$eval('.editor-instance .monaco-editor .view-line span[class*="dyn-rule"]', (ss) =>
    ss.map((s) => s.textContent.replace(/\u00a0/g, ' ').trim()).filter((t) => t.length > 0));

// Opens `file` through Quick Open and waits for `kernel`'s definition to show.
async function openFile(page, file, kernel) {
  await step(`opening ${file} through Quick Open`, async () => {
    // Quick Open needs the workbench to take keys; retry until its input shows.
    const deadline = Date.now() + TIMEOUT;
    for (;;) {
      await page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 } }).catch(() => {});
      await page.keyboard.press('Control+P');
      try {
        await page.waitForSelector('.quick-input-widget:not([style*="display: none"]) input', { timeout: 3000 });
        break;
      } catch (e) {
        if (Date.now() > deadline) throw e;
      }
    }
    await page.keyboard.type(file);
    await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${file}"]`, { timeout: TIMEOUT });
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.tabs-container .tab[aria-label*="${file}"]`, { timeout: TIMEOUT });
    await page.waitForFunction(
      (k) => [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')].some((l) => l.textContent.includes(k + '(')),
      kernel, { timeout: TIMEOUT });
  });
}

// Replaces the whole text of the open editor with `text` (select all, paste, as a user
// would) and waits until `marker` shows.
async function pasteText(page, text, marker) {
  await step('replacing the text (select all, paste)', async () => {
    // An editor that has just opened may miss the keys: paste again until the text shows.
    for (let attempt = 1; ; attempt++) {
      await page.evaluate((t) => navigator.clipboard.writeText(t), text);
      await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Control+V');
      try {
        await page.waitForFunction(
          (m) => [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')].some((l) => l.textContent.includes(m)),
          marker, { timeout: 5000 });
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
    // Back to the top, so that the kernel's signature is on screen.
    await page.keyboard.press('Control+Home');
  });
}

// Runs a command by its title from the command palette (F1).
async function runCommand(page, title) {
  await step(`running "${title}" from the command palette`, async () => {
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: TIMEOUT });
    await page.keyboard.type(title);
    await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${title}"]`, { timeout: TIMEOUT });
    await page.keyboard.press('Enter');
  });
}

// The texts of the kforecast output channel's log files under `dir` (code-server's logs).
function kforecastLogs(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/kforecast.*\.log$/.test(e.name)) out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

// The open code action menu (Quick Fix, Source Action): each action with the group
// header above it ("Rewrite", "More Actions...", …).
async function actionMenu(page) {
  await page.waitForSelector('.action-widget .monaco-list-row.action', { timeout: TIMEOUT });
  await page.waitForTimeout(500);
  return page.$$eval('.action-widget .monaco-list-row', (rows) => {
    let group = '';
    const out = [];
    for (const r of rows) {
      if (r.classList.contains('group-header')) group = r.textContent.trim();
      else out.push({ group, title: (r.getAttribute('aria-label') || r.textContent).trim() });
    }
    return out;
  });
}

const codeLensTexts = (page) =>
  page.$$eval('.editor-instance .monaco-editor .codelens-decoration', (ls) => ls.map((l) => l.textContent.replace(/\u00a0/g, ' ')));

async function main() {
  const kernel = env('KF_KERNEL');
  const newText = fs.readFileSync(env('KF_NEW_TEXT'), 'utf8');
  const shot = process.env.KF_SCREENSHOT || '';
  const width = Number(env('KF_WIDTH', '1280'));
  const height = Number(env('KF_HEIGHT', '800'));
  const url = env('KF_URL');

  const context = await chromium.launchPersistentContext(env('KF_PROFILE'), {
    executablePath: env('KF_CHROMIUM', '/usr/bin/chromium'),
    headless: true,
    viewport: { width, height },
    deviceScaleFactor: 1,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-extensions',
    ],
  });
  const origin = new URL(url).origin;
  // Nothing but code-server on loopback: abort any other request (CDNs, galleries).
  const blocked = new Set();
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (/^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(u) || /^(data|blob):/.test(u)) return route.continue();
    blocked.add(u.split('?')[0]);
    return route.abort();
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(TIMEOUT);

  try {
    await step('loading the workbench', async () => {
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('.monaco-workbench .part.editor', { timeout: TIMEOUT });
    });
    log('workbench loaded');

    const file = env('KF_OPEN');
    await openFile(page, file, kernel);
    log(`${file} open`);

    await step('waiting for the kforecast server (status bar item)', async () => {
      await page.waitForFunction(
        () => [...document.querySelectorAll('.statusbar-item')].some((s) => /kforecast:/.test(s.textContent)),
        null, { timeout: TIMEOUT });
    });
    log('server running: ' + (await page.$$eval('.statusbar-item', (ss) => ss.map((s) => s.textContent).filter((t) => /kforecast/.test(t)).join(' | '))));

    // The text equals git HEAD: the kernel is unchanged, so no forecast hint.
    await page.waitForTimeout(3000);
    const before = await hintTexts(page);
    if (before.some((t) => /faster|slower/.test(t))) {
      throw new Failure(`a forecast hint shows before any edit (the file equals git HEAD): ${JSON.stringify(before)}`);
    }
    log('no hint before the edit, as expected');

    await pasteText(page, newText, 'TILE_DIM');
    log('text replaced');

    const hint = await step('waiting for the kforecast inlay hint containing "faster"', async () => {
      const h = await page.waitForFunction(
        () => {
          const ss = [...document.querySelectorAll('.editor-instance .monaco-editor .view-line span[class*="dyn-rule"]')];
          const s = ss.find((x) => /faster/.test(x.textContent));
          return s ? s.textContent.replace(/\u00a0/g, ' ').trim() : false;
        },
        null, { timeout: TIMEOUT });
      return h.jsonValue();
    });
    // The hint sits at the end of the line that opens the kernel's body: the signature's
    // line, or the `{` line right below it (never between the `)` and the `{`).
    // In screen order (the view lines are positioned, not necessarily in DOM order).
    const lines = await page.$$eval('.editor-instance .monaco-editor .view-line', (ls) => ls
      .map((l) => [parseFloat(l.style.top) || 0, l.textContent.replace(/\u00a0/g, ' ')])
      .sort((x, y) => x[0] - y[0])
      .map((x) => x[1]));
    const at = lines.findIndex((l) => l.includes(hint));
    const hintLine = at >= 0 ? lines[at] : '';
    const opensBody = hintLine.includes(kernel + '(') && hintLine.includes('{')
      || /^\s*\{/.test(hintLine) && at > 0 && lines[at - 1].includes(kernel + '(');
    if (!opensBody) {
      throw new Failure(`the hint "${hint}" is not on the line that opens \`${kernel}\`'s body: "${hintLine}"`);
    }
    log(`inlay hint: "${hint}" on: ${hintLine.trim()}`);

    // The lens says what the hint says (`kforecast: <hint> vs HEAD`), right after the edit.
    const lens = await step(`waiting for the kforecast code lens to say "kforecast: ${hint} vs HEAD"`, async () => {
      const h = await page.waitForFunction(
        (want) => {
          const l = [...document.querySelectorAll('.editor-instance .monaco-editor .codelens-decoration')]
            .find((x) => x.textContent.replace(/\u00a0/g, ' ').includes(want));
          return l ? l.textContent.replace(/\u00a0/g, ' ') : false;
        },
        `kforecast: ${hint} vs HEAD`, { timeout: TIMEOUT });
      return h.jsonValue();
    });
    log(`code lens: "${lens}"`);

    if (blocked.size) log(`blocked ${blocked.size} non-loopback request(s): ${[...blocked].slice(0, 5).join(' ')}`);

    if (shot) {
      // Hide the side bar so that the whole hint fits, then hover the kernel's name.
      await page.keyboard.press('Control+B');
      await page.waitForTimeout(500);
      // The hover opens over the line below the name, where the hint is: with
      // KF_SCREENSHOT_PLAIN, a picture of the hint and the lens alone first.
      const plain = process.env.KF_SCREENSHOT_PLAIN;
      if (plain) {
        fs.mkdirSync(path.dirname(path.resolve(plain)), { recursive: true });
        await page.screenshot({ path: plain });
        log(`screenshot without the hover: ${plain}`);
      }
      await step('hovering the kernel name', async () => {
        const name = page.locator('.editor-instance .monaco-editor .view-line span', { hasText: new RegExp(`^${kernel}$`) }).first();
        const box = await name.boundingBox();
        if (!box) throw new Error(`no span for ${kernel}`);
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.waitForFunction(
          () => [...document.querySelectorAll('.monaco-hover')].some((h) => /faster/.test(h.textContent) && h.offsetParent !== null),
          null, { timeout: 20000 });
        await page.waitForTimeout(500);
      });
      // The hover opens at most ~250px high with a scroll bar: drag its bottom
      // edge down so that all the bins show (best effort).
      try {
        const sash = await page.evaluate(() => {
          const hover = [...document.querySelectorAll('.monaco-resizable-hover')].find((h) => h.getBoundingClientRect().height > 0);
          if (!hover) return null;
          const hb = hover.getBoundingClientRect();
          const sashes = [...hover.querySelectorAll('.monaco-sash.horizontal')].map((s) => s.getBoundingClientRect());
          const bottom = sashes.filter((r) => r.width > 0).sort((a, b) => b.y - a.y)[0];
          return bottom && Math.abs(bottom.y + bottom.height / 2 - hb.bottom) < 10
            ? { x: bottom.x + bottom.width / 2, y: bottom.y + bottom.height / 2 } : null;
        });
        if (sash) {
          const grow = Number(process.env.KF_HOVER_GROW || '260');
          await page.mouse.move(sash.x, sash.y);
          await page.mouse.down();
          await page.mouse.move(sash.x, sash.y + grow / 2, { steps: 5 });
          await page.mouse.move(sash.x, sash.y + grow, { steps: 5 });
          await page.mouse.up();
          await page.waitForTimeout(300);
          // Park the pointer on the hover itself so that it stays.
          await page.mouse.move(sash.x, sash.y - 40);
          await page.waitForTimeout(300);
        }
      } catch (_) { /* keep the hover as it opened */ }
      fs.mkdirSync(path.dirname(path.resolve(shot)), { recursive: true });
      await page.screenshot({ path: shot });
      log(`screenshot: ${shot}`);
    }

    // Code action kinds, as VS Code's menus group them: with the cursor on the kernel's
    // name, Quick Fix (Ctrl+.) lists Search under "Rewrite" (refactor.rewrite) and not Set
    // baseline, which Source Action lists (source).
    const name = page.locator('.editor-instance .monaco-editor .view-line span', { hasText: new RegExp(`^${kernel}$`) }).first();
    await step('clicking the kernel name', () => name.click());
    await page.keyboard.press('Control+.');
    const quick = await step('reading the Quick Fix menu', () => actionMenu(page));
    log(`quick fix menu: ${JSON.stringify(quick)}`);
    const search = quick.find((a) => a.title.startsWith(`Search faster variants of \`${kernel}\``));
    if (!search || search.group !== 'Rewrite') throw new Failure(`Search is not a Rewrite action (refactor.rewrite): ${JSON.stringify(quick)}`);
    if (quick.some((a) => a.title.startsWith('Set '))) throw new Failure(`Set baseline is in the Quick Fix menu (it is a source action): ${JSON.stringify(quick)}`);
    await page.keyboard.press('Escape');
    await runCommand(page, 'Source Action...');
    const source = await step('reading the Source Action menu', () => actionMenu(page));
    log(`source action menu: ${JSON.stringify(source)}`);
    if (!source.some((a) => a.title === `Set \`${kernel}\` as baseline`)) throw new Failure(`no Set baseline source action: ${JSON.stringify(source)}`);
    await page.keyboard.press('Escape');

    // A kernel with no `kforecast:` declaration (KF_DECL_OPEN, edited to KF_DECL_NEW_TEXT):
    // Verify cannot build its job and says so with a Warning; the Quick Fix menu's
    // "Insert a `kforecast:` declaration" inserts a filled-in one, after which Verify
    // builds its job (the kforecast output channel's log, under KF_LOGS, shows the server's
    // `{"started":true}`).
    const declFile = process.env.KF_DECL_OPEN;
    if (declFile) {
      const declKernel = env('KF_DECL_KERNEL');
      await openFile(page, declFile, declKernel);
      // The marker: a line of the edited text that the original lacks.
      const declText = fs.readFileSync(env('KF_DECL_NEW_TEXT'), 'utf8');
      await pasteText(page, declText, env('KF_DECL_MARKER'));
      await step(`waiting for the hint on ${declKernel}`, () => page.waitForFunction(
        () => [...document.querySelectorAll('.editor-instance .monaco-editor .view-line span[class*="dyn-rule"]')].some((x) => /×|same/.test(x.textContent)),
        null, { timeout: TIMEOUT }));
      const declName = page.locator('.editor-instance .monaco-editor .view-line span', { hasText: new RegExp(`^${declKernel}$`) }).first();
      await step(`clicking ${declKernel}`, () => declName.click());
      await runCommand(page, 'kforecast: Verify kernel on GPU');
      await step('waiting for the missing-declaration Warning', () => page.waitForSelector(
        '.editor-instance .monaco-editor .squiggly-warning', { timeout: TIMEOUT }));
      log('Verify without a declaration: a Warning');
      await page.keyboard.press('Escape');
      await step(`clicking ${declKernel}`, () => declName.click());
      await page.keyboard.press('Control+.');
      const fixes = await step('reading the Quick Fix menu', () => actionMenu(page));
      log(`quick fix menu: ${JSON.stringify(fixes)}`);
      const title = `Insert a \`kforecast:\` declaration for \`${declKernel}\``;
      const at = fixes.findIndex((a) => a.title === title);
      if (at < 0 || fixes[at].group !== 'Quick Fix') throw new Failure(`no "${title}" quick fix: ${JSON.stringify(fixes)}`);
      await step('applying the declaration quick fix', async () => {
        // The menu opens on its first action; arrows move over actions only.
        for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await page.waitForFunction(
          () => [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')]
            .some((l) => l.textContent.replace(/\u00a0/g, ' ').startsWith('// kforecast: ')),
          null, { timeout: TIMEOUT });
      });
      const inserted = (await viewLines(page)).find((l) => l.startsWith('// kforecast: '));
      log(`inserted: ${inserted}`);
      await step(`clicking ${declKernel}`, () => declName.click());
      await runCommand(page, 'kforecast: Verify kernel on GPU');
      await step('waiting for the server to start the Verify job (the kforecast output channel)', async () => {
        const done = (t) => t.split('\n').some((l) => l.includes('[command] kforecast.verify') && l.includes(`"kernel":"${declKernel}"`) && l.includes('"started":true'));
        const deadline = Date.now() + TIMEOUT;
        while (!kforecastLogs(env('KF_LOGS')).some(done)) {
          if (Date.now() > deadline) throw new Error('no `{"started":true}` for kforecast.verify in the kforecast output channel');
          await page.waitForTimeout(250);
        }
      });
      log('Verify after the quick fix: the job started');
    }
  } catch (e) {
    const dir = process.env.KF_ARTIFACTS;
    if (dir) {
      try {
        fs.mkdirSync(dir, { recursive: true });
        await page.screenshot({ path: path.join(dir, 'failure.png') });
        fs.writeFileSync(path.join(dir, 'editor-lines.txt'), (await viewLines(page)).join('\n') + '\n');
        fs.writeFileSync(path.join(dir, 'hints.json'), JSON.stringify({ hints: await hintTexts(page), lenses: await codeLensTexts(page) }, null, 2));
        log(`failure screenshot and editor text in ${dir}`);
      } catch (_) { /* the page may be gone */ }
    }
    throw e;
  } finally {
    await context.close();
  }
}

main().then(
  () => { log('ok'); process.exit(0); },
  (e) => {
    log(`FAIL: ${e instanceof Failure ? e.message : (e && e.stack) || e}`);
    process.exit(1);
  },
);

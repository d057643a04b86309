// The debugger page: renders the service's published mini-apps, sends requests as the platform's
// proxy does and shows the answers. Plain script, no build step; it talks to this origin only.
'use strict';

(function () {
  /** Types the proxy leaves out of the JSON body's `params` (they travel in the query only). */
  const PLAIN = ['string', 'number', 'boolean'];
  const UPLOADS = ['file', 'image'];
  const byId = (id) => document.getElementById(id);

  /** A DOM element with attributes (`text` sets its text) and children. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'class') node.className = value;
      else if (key in node && typeof value !== 'string') node[key] = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child !== undefined && child !== null && child !== false) node.append(child);
    }
    return node;
  }

  async function getJson(url) {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.json();
  }

  const state = { context: { chains: [], actions: {} } };

  // ---- widgets -------------------------------------------------------------------------------

  const integerType = (type) => /^u?int\d+$/.test(type);
  const bytesType = (type) => /^bytes\d*$/.test(type);

  /** A datetime default or bound (ISO text or epoch ms) as a datetime-local value, in UTC. */
  function localDate(value) {
    if (value === undefined || value === null || value === '') return undefined;
    const date = new Date(
      typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value,
    );
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 19);
  }

  function hintOf(param) {
    const { type } = param;
    const parts = [];
    if (integerType(type)) parts.push(`whole number (${type}, may exceed 2^53)`);
    if (bytesType(type)) {
      const size = type.slice(5);
      parts.push(
        size ? `0x hex of exactly ${size} byte${size === '1' ? '' : 's'}` : '0x hex bytes',
      );
    }
    if (type === 'datetime') parts.push('date and time, read as UTC');
    if (param.min !== undefined) parts.push(`min ${param.min}`);
    if (param.max !== undefined) parts.push(`max ${param.max}`);
    if (param.step !== undefined) parts.push(`step ${param.step}`);
    if (param.minLength !== undefined) parts.push(`at least ${param.minLength} characters`);
    if (param.maxLength !== undefined) parts.push(`at most ${param.maxLength} characters`);
    if (param.pattern !== undefined) parts.push(`pattern ${param.pattern}`);
    if (param.accept !== undefined) parts.push(`accepts ${param.accept}`);
    if (param.maxSize !== undefined) parts.push(`at most ${param.maxSize} bytes`);
    if (param.maxWidth !== undefined) parts.push(`at most ${param.maxWidth} px wide`);
    if (param.maxHeight !== undefined) parts.push(`at most ${param.maxHeight} px high`);
    if (param.aspectRatio !== undefined) parts.push(`aspect ratio ${param.aspectRatio}`);
    if (param.value !== undefined && !param.fixed) parts.push(`default ${param.value}`);
    return parts.join(' · ');
  }

  /** The input of one parameter, as the platform renders its type. */
  function widget(param, id) {
    const { type, name } = param;
    const fixed = param.fixed === true;
    const common = { id, name, placeholder: param.placeholder, 'data-type': type };
    if (type === 'select') {
      const select = el('select', { ...common, disabled: fixed });
      select.append(el('option', { value: '', text: param.required ? 'Choose…' : '(none)' }));
      for (const option of param.options || []) {
        select.append(
          el('option', {
            value: String(option.value),
            text: option.label,
            title: option.description,
          }),
        );
      }
      if (param.value !== undefined) select.value = String(param.value);
      return select;
    }
    if (type === 'radio') {
      const group = el('div', { class: 'choices', role: 'radiogroup', id, 'data-type': type });
      for (const option of param.options || []) {
        group.append(
          el(
            'label',
            {},
            el('input', {
              type: 'radio',
              name,
              value: String(option.value),
              checked: param.value !== undefined && String(param.value) === String(option.value),
              disabled: fixed,
            }),
            el('span', { text: option.label }),
            option.description
              ? el('span', { class: 'hint', text: `— ${option.description}` })
              : null,
          ),
        );
      }
      return group;
    }
    if (type === 'boolean' || type === 'bool') {
      return el(
        'label',
        { class: 'check' },
        el('input', {
          ...common,
          type: 'checkbox',
          checked: param.value === true || param.value === 'true',
          disabled: fixed,
        }),
        el('span', { text: 'true when checked' }),
      );
    }
    if (UPLOADS.includes(type)) {
      return el('input', {
        ...common,
        type: 'file',
        accept: param.accept || (type === 'image' ? 'image/*' : undefined),
        multiple: param.multiple === true,
      });
    }
    if (type === 'textarea') {
      const area = el('textarea', {
        ...common,
        readonly: fixed,
        minlength: param.minLength,
        maxlength: param.maxLength,
      });
      if (param.value !== undefined) area.value = String(param.value);
      return area;
    }
    const input = el('input', {
      ...common,
      readonly: fixed,
      spellcheck: 'false',
      autocomplete: 'off',
    });
    if (type === 'number') {
      Object.assign(input, { type: 'number' });
      if (param.min !== undefined) input.min = String(param.min);
      if (param.max !== undefined) input.max = String(param.max);
      input.step = param.step !== undefined ? String(param.step) : 'any';
    } else if (type === 'email' || type === 'url') {
      input.type = type;
    } else if (type === 'datetime') {
      input.type = 'datetime-local';
      input.step = '1';
      const min = localDate(param.min);
      const max = localDate(param.max);
      if (min) input.min = min;
      if (max) input.max = max;
    } else {
      input.type = 'text';
      if (type === 'address') {
        input.pattern = '^0x[0-9a-fA-F]{40}$';
        input.placeholder = param.placeholder || '0x…';
      } else if (integerType(type)) {
        input.inputMode = 'numeric';
        input.pattern = '^[+-]?\\d+$';
      } else if (bytesType(type)) {
        input.pattern = '^0x([0-9a-fA-F]{2})*$';
        input.placeholder = param.placeholder || '0x…';
      } else if (param.pattern) {
        input.pattern = param.pattern;
      }
      if (param.minLength !== undefined) input.minLength = param.minLength;
      if (param.maxLength !== undefined) input.maxLength = param.maxLength;
    }
    if (param.value !== undefined)
      input.value = type === 'datetime' ? localDate(param.value) || '' : String(param.value);
    return input;
  }

  function field(action, param, index) {
    const id = `p-${action.path.replace(/\W+/g, '-')}-${index}`;
    return el(
      'div',
      { class: 'field', 'data-param': param.name },
      el(
        'label',
        { class: 'label', for: id },
        param.label,
        param.required
          ? el('span', { class: 'req', title: 'required', 'aria-label': 'required', text: '*' })
          : null,
        el('span', { class: 'type', text: `${param.name}: ${param.type}` }),
        param.fixed ? el('span', { class: 'fixed', text: 'fixed by the mini-app' }) : null,
      ),
      widget(param, id),
      param.description ? el('span', { class: 'hint', text: param.description }) : null,
      hintOf(param) ? el('span', { class: 'hint', text: hintOf(param) }) : null,
    );
  }

  // ---- requests, as the proxy sends them -----------------------------------------------------

  /** What the user entered: text, a typed option value, a boolean, or files; undefined when empty. */
  function readInputs(form, params) {
    const inputs = {};
    for (const param of params) {
      const { name, type } = param;
      if (param.fixed) {
        inputs[name] = param.value;
        continue;
      }
      if (type === 'radio' || type === 'select') {
        const chosen =
          type === 'radio'
            ? form.querySelector(`input[name="${CSS.escape(name)}"]:checked`)
            : form.elements[name];
        const text = chosen ? chosen.value : '';
        const option = (param.options || []).find((o) => String(o.value) === text);
        inputs[name] = option ? option.value : text === '' ? undefined : text;
      } else if (type === 'boolean' || type === 'bool') {
        inputs[name] = form.elements[name].checked;
      } else if (UPLOADS.includes(type)) {
        const files = Array.from(form.elements[name].files || []);
        inputs[name] = files.length > 0 ? files : undefined;
      } else {
        const text = form.elements[name].value;
        inputs[name] = text === '' ? undefined : text;
      }
    }
    return inputs;
  }

  function chainContext(action) {
    const chosen = byId('chain').value;
    return {
      sourceChain: chosen === '' ? action.chains.source : Number(chosen),
      destinationChain: action.chains.destination,
    };
  }

  /** The proxy's request: query with every filled parameter, JSON (or multipart) body, headers. */
  function proxyRequest(action, inputs) {
    const params = action.params || [];
    const wallet = byId('wallet').value.trim();
    const { sourceChain, destinationChain } = chainContext(action);
    const context = { userAddress: wallet || undefined, sourceChain, destinationChain };
    const query = new URLSearchParams();
    const bodyParams = {};
    const files = [];
    for (const param of params) {
      const value = inputs[param.name];
      if (UPLOADS.includes(param.type)) {
        if (value) files.push([param, value]);
        continue;
      }
      if (value !== undefined) query.set(param.name, String(value));
      if (PLAIN.includes(param.type)) continue;
      if (value !== undefined) bodyParams[param.name] = value;
      else if (param.value !== undefined) bodyParams[param.name] = param.value;
    }
    const headers = {
      'X-Sherry-Proxy': 'true',
      'X-Sherry-Version': '1.0.0',
      'X-Timestamp': String(Date.now()),
      'X-Chain-ID': String(sourceChain),
    };
    if (destinationChain !== undefined) headers['X-Destination-Chain'] = String(destinationChain);
    if (wallet) headers['X-Wallet-Address'] = wallet;
    // Signed in: the session goes as the SDK sends it (the proxy itself never sends one).
    if (state.session) headers.Authorization = `Bearer ${state.session.token}`;
    const target = query.toString() ? `${action.path}?${query}` : action.path;
    if (files.length === 0) {
      headers['Content-Type'] = 'application/json';
      const body = JSON.stringify({ action: action.label, params: bodyParams, context });
      return { target, headers, body, shown: body };
    }
    // With files: multipart, each file under its name (name[i] when several), the rest as text.
    const form = new FormData();
    for (const [param, list] of files) {
      list.forEach((file, i) =>
        form.append(param.multiple ? `${param.name}[${i}]` : param.name, file, file.name),
      );
    }
    for (const [name, value] of Object.entries(bodyParams)) form.append(name, String(value));
    form.append('_sdk_context', JSON.stringify(context));
    form.append('action', action.label);
    const shown = `multipart/form-data: ${[...form.keys()].join(', ')}`;
    return { target, headers, body: form, shown };
  }

  // ---- answers -------------------------------------------------------------------------------

  const display = (value) =>
    value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);

  function table(entries, label) {
    return el(
      'table',
      { class: 'kv', 'aria-label': label },
      el(
        'tbody',
        {},
        entries.map(([key, value]) =>
          el('tr', {}, el('th', { scope: 'row', text: key }), el('td', { text: display(value) })),
        ),
      ),
    );
  }

  function statusLine(response, ms) {
    const ok = response.status >= 200 && response.status < 300;
    return el(
      'div',
      { class: 'status' },
      el('span', {
        class: `code ${ok ? 'ok' : 'bad'}`,
        'data-status': response.status,
        text: `HTTP ${response.status}`,
      }),
      ` · ${ms.toFixed(0)} ms · request id `,
      el('span', { class: 'request-id', text: response.headers.get('x-request-id') || '(none)' }),
    );
  }

  function renderDataAnswer(box, body) {
    if (body.message) box.append(el('p', { class: 'message', text: body.message }));
    if (body.data !== undefined && body.data !== null) {
      box.append(el('h4', { text: 'Data' }));
      box.append(
        typeof body.data === 'object' && !Array.isArray(body.data)
          ? table(Object.entries(body.data), 'data')
          : el('pre', { text: JSON.stringify(body.data, null, 2) }),
      );
    }
  }

  function renderError(box, body) {
    const text = body && typeof body === 'object' ? body.error || body.message : undefined;
    box.append(
      el('p', { class: 'error-text', role: 'alert', text: text || 'The action answered an error' }),
    );
    if (body && body.message && body.message !== text)
      box.append(el('p', { class: 'message', text: body.message }));
    const invalid = body && body.data && body.data.invalidParams;
    if (Array.isArray(invalid))
      box.append(el('p', { class: 'note', text: `Invalid parameters: ${invalid.join(', ')}` }));
  }

  async function renderTransaction(box, body, intent) {
    box.append(el('h4', { text: 'Decoded transaction' }));
    const holder = el('div', { class: 'decoded', text: 'Decoding…' });
    box.append(holder);
    const response = await fetch('/debug/decode', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ serializedTransaction: body.serializedTransaction, abi: body.abi }),
    });
    const decoded = await response.json();
    holder.textContent = '';
    if (!response.ok) {
      holder.append(
        el('p', {
          class: 'error-text',
          text: decoded.error || decoded.message || 'Cannot decode it',
        }),
      );
      return;
    }
    const call = decoded.call;
    const rows = [
      ['format', decoded.format],
      ['to', decoded.fields.to],
      ['value (wei)', decoded.fields.value],
      ['chainId', decoded.fields.chainId],
      [
        'function',
        call
          ? call.functionName
          : decoded.selector
            ? `unknown (selector ${decoded.selector})`
            : '(no call data)',
      ],
    ];
    if (call) for (const arg of call.args) rows.push([`${arg.name} (${arg.type})`, arg.value]);
    for (const key of [
      'gas',
      'maxFeePerGas',
      'maxPriorityFeePerGas',
      'gasPrice',
      'nonce',
      'type',
      'data',
    ]) {
      rows.push([key, decoded.fields[key] === null ? '(left to the wallet)' : decoded.fields[key]]);
    }
    holder.append(table(rows, 'decoded transaction'));
    if (call && call.abi !== 'answer')
      holder.append(
        el('p', {
          class: 'note',
          text: `Decoded with the standard ${call.abi.toUpperCase()} ABI (the answer had none).`,
        }),
      );
    holder.append(walletSender(decoded, intent));
  }

  /** With an injected wallet, a button that hands it the transaction (eth_sendTransaction). */
  function walletSender(decoded, intent) {
    const provider = window.ethereum;
    if (!provider || typeof provider.request !== 'function') {
      return el('p', {
        class: 'note',
        text: 'No injected wallet (window.ethereum) in this browser: nothing to send it with.',
      });
    }
    const out = el('p', { class: 'note wallet-result' });
    const button = el('button', {
      type: 'button',
      class: 'secondary send-wallet',
      text: 'Send with wallet',
    });
    button.addEventListener('click', async () => {
      button.disabled = true;
      out.className = 'note wallet-result';
      try {
        const [from] = await provider.request({ method: 'eth_requestAccounts' });
        const chainId = decoded.fields.chainId;
        if (typeof chainId === 'number') {
          const current = await provider.request({ method: 'eth_chainId' });
          const wanted = `0x${chainId.toString(16)}`;
          if (String(current).toLowerCase() !== wanted) {
            await provider.request({
              method: 'wallet_switchEthereumChain',
              params: [{ chainId: wanted }],
            });
          }
        }
        const hash = await provider.request({
          method: 'eth_sendTransaction',
          params: [{ from, ...decoded.walletRequest }],
        });
        out.textContent = `Sent: ${hash}`;
        if (intent) followIntent(intent, status);
      } catch (error) {
        out.className = 'note wallet-result failure';
        out.textContent = `The wallet refused: ${(error && error.message) || error}`;
      } finally {
        button.disabled = false;
      }
    });
    const status = el('p', { class: 'note intent-status' });
    return el('div', { class: 'row' }, button, out, status);
  }

  const PENDING = ['answered', 'submitted'];

  /**
   * Shows where the answer's intent (X-Action-Intent) stands until it settles. Nothing is
   * reported: the service sees the wallet's transaction on the chain itself, as it must for the
   * platform's SDK, which cannot report.
   */
  async function followIntent(intent, line) {
    const url = `/api/transactions/${encodeURIComponent(intent)}`;
    const show = (answer) => {
      const data = answer && answer.success ? answer.data : undefined;
      line.className = data ? 'note intent-status' : 'note intent-status failure';
      line.textContent = data
        ? `Intent ${intent}: ${data.status}${data.blockNumber ? ` in block ${data.blockNumber}` : ''}`
        : `Intent ${intent}: ${(answer && answer.error) || 'no answer'}`;
      if (data) line.dataset.status = data.status;
      return !data || !PENDING.includes(data.status);
    };
    try {
      // Five minutes of polls at most: what is still pending after that, the GET route tells.
      for (let polls = 0, done = show(await (await fetch(url)).json()); !done; polls++) {
        if (polls === 150) {
          line.textContent += ' (stopped watching)';
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 2000));
        done = show(await (await fetch(url)).json());
      }
    } catch (error) {
      line.className = 'note intent-status failure';
      line.textContent = `Intent ${intent}: ${error.message}`;
    }
  }

  async function send(action, form, box) {
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    box.hidden = false;
    box.textContent = 'Sending…';
    const request = proxyRequest(action, readInputs(form, action.params || []));
    const started = performance.now();
    try {
      const response = await fetch(request.target, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
      });
      const text = await response.text();
      const ms = performance.now() - started;
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      box.textContent = '';
      box.append(statusLine(response, ms));
      if (!response.ok) renderError(box, body);
      else if (body && typeof body.serializedTransaction === 'string')
        await renderTransaction(box, body, response.headers.get('X-Action-Intent'));
      else if (body && typeof body === 'object') renderDataAnswer(box, body);
      box.append(
        el(
          'details',
          {},
          el('summary', { text: 'Answer' }),
          el('pre', { text: typeof body === 'string' ? body : JSON.stringify(body, null, 2) }),
        ),
      );
    } catch (error) {
      box.textContent = '';
      box.append(el('p', { class: 'error-text', text: `The request failed: ${error.message}` }));
    } finally {
      box.append(
        el(
          'details',
          {},
          el('summary', { text: 'Request sent' }),
          el('pre', {
            text: `POST ${request.target}\n${Object.entries(request.headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}\n\n${request.shown}`,
          }),
        ),
      );
      button.disabled = false;
    }
  }

  // ---- samples -------------------------------------------------------------------------------

  function fillSample(form, action, sample) {
    for (const param of action.params || []) {
      if (param.fixed || UPLOADS.includes(param.type)) continue;
      const value = sample.params[param.name];
      const text = value === undefined ? '' : String(value);
      if (param.type === 'radio') {
        for (const input of form.querySelectorAll(`input[name="${CSS.escape(param.name)}"]`))
          input.checked = input.value === text;
      } else if (param.type === 'boolean' || param.type === 'bool') {
        form.elements[param.name].checked = value === true || text === 'true';
      } else if (param.type === 'datetime') {
        form.elements[param.name].value = localDate(value) || '';
      } else {
        form.elements[param.name].value = text;
      }
    }
    // The wallet chosen at the top of the page is the tester's: a sample's user only fills it empty.
    if (sample.userAddress && !byId('wallet').value.trim())
      byId('wallet').value = sample.userAddress;
    if (sample.chainId !== undefined) byId('chain').value = String(sample.chainId);
  }

  // ---- chain actions: blockchain and transfer, built by the client, sent by the wallet --------

  const CHAIN_KINDS = ['blockchain', 'transfer'];

  /** A transfer's recipient and amount as parameters, fixed when the mini-app fixes them. */
  function transferParams(action) {
    return [
      transferParam('to', 'Recipient', action.to, action.recipient, 'address'),
      transferParam(
        'amount',
        'Amount',
        action.amount,
        action.amountConfig,
        'text',
        'Whole coins, as 0.05',
      ),
    ];
  }

  /** One of them: its fixed value, or what the user chooses as its config says. */
  function transferParam(name, label, fixed, given, type, description) {
    if (fixed !== undefined) return { name, label, type, fixed: true, value: fixed };
    const config = given || {};
    const chosen = config.type === 'select' || config.type === 'radio';
    return {
      name,
      label: config.label || label,
      type: chosen ? config.type : type,
      options: config.options,
      value: config.defaultValue,
      description: config.description || description,
      required: true,
    };
  }

  /** Asks the server to build the call (viem, as the client does), then hands it to the wallet. */
  async function sendChainAction(miniAppId, index, params, form, out) {
    const provider = window.ethereum;
    out.className = 'note wallet-result';
    if (!provider || typeof provider.request !== 'function') {
      out.textContent =
        'No injected wallet (window.ethereum) in this browser: nothing to send it with.';
      return;
    }
    try {
      const [from] = await provider.request({ method: 'eth_requestAccounts' });
      const inputs = {};
      for (const [name, value] of Object.entries(readInputs(form, params)))
        if (value !== undefined) inputs[name] = String(value);
      const response = await fetch('/debug/chain-call', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ miniApp: miniAppId, index, inputs, from }),
      });
      const call = await response.json();
      if (!response.ok) throw new Error(call.message || call.error || `HTTP ${response.status}`);
      out.textContent = '';
      out.append(table(call.shown, 'chain call'));
      const current = await provider.request({ method: 'eth_chainId' });
      const wanted = `0x${call.chainId.toString(16)}`;
      if (String(current).toLowerCase() !== wanted)
        await provider.request({
          method: 'wallet_switchEthereumChain',
          params: [{ chainId: wanted }],
        });
      const hash = await provider.request({
        method: 'eth_sendTransaction',
        params: [{ from, ...call.walletRequest }],
      });
      out.append(el('span', { class: 'sent', text: `Sent: ${hash}` }));
    } catch (error) {
      out.className = 'note wallet-result failure';
      out.textContent = `Not sent: ${(error && error.message) || error}`;
    }
  }

  /** A blockchain or transfer action: its fields, and a button that sends it with the wallet. */
  function chainActionCard(miniAppId, action, index) {
    const key = `${miniAppId}-${index}`;
    const params = action.type === 'transfer' ? transferParams(action) : action.params || [];
    const form = el(
      'form',
      { novalidate: true, 'data-chain-action': key },
      params.map((p, i) => field({ path: `chain-${key}` }, p, i)),
    );
    const out = el('div', { class: 'note wallet-result', 'data-chain-answer': key });
    const button = el('button', { type: 'submit', class: 'send-wallet', text: 'Send with wallet' });
    form.append(el('div', { class: 'row' }, button));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      button.disabled = true;
      await sendChainAction(miniAppId, index, params, form, out);
      button.disabled = false;
    });
    const target =
      action.type === 'blockchain' ? `${action.functionName} on ${action.address}` : 'native coin';
    return el(
      'article',
      { class: 'action', 'data-kind': action.type },
      el('h3', {}, action.label, el('span', { class: 'badge tx', text: action.type })),
      el('div', {
        class: 'path',
        text: `built by the client, no request here · ${target} · chain ${action.chains.source}`,
      }),
      action.description ? el('p', { class: 'muted', text: action.description }) : null,
      form,
      out,
    );
  }

  /** Each published action as its card: dynamic ones by path, chain ones by position. */
  function actionCards(miniAppId, actions) {
    let chainIndex = 0;
    return actions.map((action) =>
      CHAIN_KINDS.includes(action.type)
        ? chainActionCard(miniAppId, action, chainIndex++)
        : actionCard(action),
    );
  }

  // ---- page ----------------------------------------------------------------------------------

  function actionCard(action) {
    const declared = state.context.actions[action.path] || { samples: [], requiresUser: false };
    const transaction = action.responseType !== 'data';
    const form = el(
      'form',
      { novalidate: true, 'data-action': action.path },
      (action.params || []).map((p, i) => field(action, p, i)),
    );
    const answer = el('div', { class: 'answer', hidden: true, 'data-answer': action.path });
    const buttons = el(
      'div',
      { class: 'row' },
      el('button', { type: 'submit', text: 'Send request' }),
    );
    declared.samples.forEach((sample, i) => {
      const fill = el('button', {
        type: 'button',
        class: 'secondary',
        text: `Fill sample ${i + 1}`,
      });
      fill.addEventListener('click', () => fillSample(form, action, sample));
      buttons.append(fill);
    });
    form.append(buttons);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void send(action, form, answer);
    });
    const chains = `chain ${action.chains.source}${action.chains.destination !== undefined ? ` → ${action.chains.destination}` : ''}`;
    return el(
      'article',
      { class: 'action', 'data-path': action.path },
      el(
        'h3',
        {},
        action.label,
        el('span', {
          class: `badge${transaction ? ' tx' : ''}`,
          text: transaction ? 'transaction' : 'data',
        }),
        declared.requiresUser
          ? el('span', { class: 'badge user', text: 'needs a wallet address' })
          : null,
      ),
      el(
        'div',
        { class: 'path' },
        `POST ${action.path} · ${chains}`,
        declared.blink ? ' · ' : null,
        declared.blink
          ? el('a', { class: 'blink', href: declared.blink, text: 'blink JSON' })
          : null,
      ),
      action.description ? el('p', { class: 'muted', text: action.description }) : null,
      form,
      answer,
    );
  }

  function miniAppSection(summary, document) {
    const sameOrigin =
      summary.icon && new URL(summary.icon, location.href).origin === location.origin;
    return el(
      'section',
      { class: 'mini-app', 'data-mini-app': summary.id },
      el(
        'header',
        {},
        sameOrigin ? el('img', { src: summary.icon, alt: '' }) : null,
        el(
          'div',
          {},
          el('h2', {}, document.title, el('span', { class: 'id', text: summary.id })),
          el('p', { class: 'muted', text: document.description }),
          el('a', { class: 'path', href: summary.metadataUrl, text: summary.metadataUrl }),
          sameOrigin ? null : el('div', { class: 'path', text: `icon: ${document.icon}` }),
        ),
      ),
      el('div', { class: 'checks', 'data-checks': summary.id, text: 'Platform rules: checking…' }),
      el('div', { class: 'actions' }, actionCards(summary.id, document.actions)),
    );
  }

  function showChecks(results) {
    for (const result of results) {
      const box = document.querySelector(`[data-checks="${CSS.escape(result.id)}"]`);
      if (!box) continue;
      box.textContent = '';
      const passes = result.problems.length === 0;
      box.className = `checks ${passes ? 'pass' : 'fail'}`;
      box.append(
        el('strong', {
          text: passes
            ? 'Platform rules: passes (the platform accepts this mini-app)'
            : `Platform rules: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`,
        }),
      );
      if (!passes)
        box.append(
          el(
            'ul',
            {},
            result.problems.map((p) => el('li', { text: p })),
          ),
        );
    }
  }

  function setUpContext() {
    const select = byId('chain');
    for (const chain of state.context.chains)
      select.append(el('option', { value: String(chain.id), text: `${chain.name} (${chain.id})` }));
    const provider = window.ethereum;
    if (provider && typeof provider.request === 'function') {
      const connect = byId('connect');
      connect.hidden = false;
      connect.addEventListener('click', async () => {
        const [account] = await provider.request({ method: 'eth_requestAccounts' });
        if (account) byId('wallet').value = account;
      });
      const signIn = byId('sign-in');
      signIn.hidden = false;
      signIn.addEventListener('click', () => signInWith(provider));
    }
  }

  // ---- Sign-In with Ethereum (docs/verified-users.md) ---------------------------------------

  /** EIP-4361 text, field by field as the client SDK writes it (src/client/sign-in.ts). */
  function siweMessage({ address, chainId, nonce }) {
    return [
      `${location.host} wants you to sign in with your Ethereum account:`,
      address,
      '',
      'Sign in to the mini-app debugger.',
      '',
      `URI: ${location.origin}`,
      'Version: 1',
      `Chain ID: ${chainId}`,
      `Nonce: ${nonce}`,
      `Issued At: ${new Date().toISOString()}`,
    ].join('\n');
  }

  /** Nonce, the wallet's personal_sign, session: then every request carries the token. */
  async function signInWith(provider) {
    const status = byId('verified');
    status.className = 'note';
    status.textContent = 'Signing in…';
    try {
      const [account] = await provider.request({ method: 'eth_requestAccounts' });
      const chainId = Number(await provider.request({ method: 'eth_chainId' }));
      const { nonce } = (await getJson('/api/auth/nonce')).data;
      // As the wallet gives it (often lower-case, which viem accepts); the answer checksums it.
      const message = siweMessage({ address: account, chainId, nonce });
      const signature = await provider.request({
        method: 'personal_sign',
        params: [message, account],
      });
      const response = await fetch('/api/auth/siwe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ message, signature }),
      });
      const answer = await response.json();
      if (!answer.success) throw new Error(answer.message || answer.error);
      state.session = answer.data;
      byId('wallet').value = answer.data.address;
      status.className = 'note verified';
      status.textContent = `Verified: ${answer.data.address} (chain ${answer.data.chainId})`;
    } catch (error) {
      state.session = undefined;
      status.className = 'note failure';
      status.textContent = `Sign-in failed: ${(error && error.message) || error}`;
    }
  }

  async function start() {
    const main = byId('mini-apps');
    try {
      const [index, context] = await Promise.all([
        getJson('/api/metadata'),
        getJson('/debug/context'),
      ]);
      state.context = context;
      setUpContext();
      byId('service').textContent = `${index.title}: ${index.description} · ${index.baseUrl}`;
      const documents = await Promise.all(
        index.miniApps.map((summary) =>
          getJson(`/api/mini-apps/${encodeURIComponent(summary.id)}`),
        ),
      );
      index.miniApps.forEach((summary, i) => main.append(miniAppSection(summary, documents[i])));
      if (index.miniApps.length === 0)
        main.append(el('p', { text: 'The service publishes no mini-app.' }));
      showChecks(await getJson('/debug/checks'));
      document.body.dataset.ready = 'true';
    } catch (error) {
      main.append(
        el('p', {
          class: 'error-text',
          role: 'alert',
          text: `Cannot load the mini-apps: ${error.message}`,
        }),
      );
    }
  }

  void start();
})();

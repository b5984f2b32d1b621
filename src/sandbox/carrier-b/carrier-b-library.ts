/**
 * The browser script served as `{widget_url}/v6/www/js/library.js`: `Packeta.Widget.pick(apiKey, callback,
 * options)` opens an in-page list of the sandbox's points and calls `callback(point)`, or `callback(null)`
 * when the shopper closes it (docs/integrations.md). It runs under the shop's CSP: it is a script from
 * 'self', builds its markup with DOM calls and styles it through the CSSOM (no inline style attributes).
 */
export const CARRIER_B_LIBRARY_JS = String.raw`/* Carrier B widget v6 – local sandbox stand-in. */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = script ? script.src.replace(/\/v6\/www\/js\/library\.js(\?.*)?$/, '') : '';
  var current = null;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function styled(node, styles) {
    Object.keys(styles).forEach(function (name) {
      node.style[name] = styles[name];
    });
    return node;
  }

  function pick(apiKey, callback, options) {
    if (current) current.finish(null);
    options = options || {};
    var overlay = styled(element('div', 'carrier-b-widget'), {
      position: 'fixed', inset: '0', background: 'rgba(0,0,0,0.45)', display: 'flex',
      alignItems: 'center', justifyContent: 'center', zIndex: '10000',
    });
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', 'Choose a pickup point');
    var panel = styled(element('div', 'carrier-b-widget__panel'), {
      background: '#fff', color: '#222', padding: '1rem', borderRadius: '6px', width: 'min(28rem, 92vw)',
      maxHeight: '80vh', overflowY: 'auto', fontFamily: 'sans-serif',
    });
    var heading = element('h2', 'carrier-b-widget__title', 'Choose a pickup point (sandbox)');
    var status = element('p', 'carrier-b-widget__status', 'Loading pickup points…');
    status.setAttribute('role', 'status');
    var list = styled(element('ul', 'carrier-b-widget__points'), { listStyle: 'none', padding: '0' });
    var closeButton = element('button', 'carrier-b-widget__close', 'Close');
    closeButton.type = 'button';
    panel.append(heading, status, list, closeButton);
    overlay.append(panel);

    var finished = false;
    function finish(point) {
      if (finished) return;
      finished = true;
      overlay.remove();
      document.removeEventListener('keydown', onKey);
      current = null;
      callback(point);
    }
    function onKey(event) {
      if (event.key === 'Escape') finish(null);
    }
    closeButton.addEventListener('click', function () {
      finish(null);
    });
    overlay.addEventListener('click', function (event) {
      if (event.target === overlay) finish(null);
    });
    document.addEventListener('keydown', onKey);
    document.body.append(overlay);
    current = { finish: finish };
    closeButton.focus();

    var query = new URLSearchParams({
      apiKey: apiKey || '',
      country: options.country || '',
      valueFormat: options.valueFormat || '',
    });
    fetch(base + '/v6/api/points?' + query.toString(), { headers: { Accept: 'application/json' } })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.error || 'The pickup points could not be loaded.');
          return body.points;
        });
      })
      .then(function (points) {
        status.textContent = points.length ? 'Pick one of ' + points.length + ' points.' : 'No pickup points here.';
        points.forEach(function (point) {
          var item = styled(element('li', 'carrier-b-widget__point'), { margin: '0.5rem 0' });
          var choose = element('button', 'carrier-b-widget__choose', point.name + ', ' + point.street + ', ' + point.city);
          choose.type = 'button';
          choose.dataset.pointId = point.id;
          choose.addEventListener('click', function () {
            finish(point);
          });
          item.append(choose);
          list.append(item);
        });
      })
      .catch(function (error) {
        status.textContent = error.message;
      });
  }

  window.Packeta = window.Packeta || {};
  window.Packeta.Widget = {
    pick: pick,
    close: function () {
      if (current) current.finish(null);
    },
  };
})();
`;

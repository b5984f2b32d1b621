/*
 * Carrier B's pickup-point picker at checkout (docs/integrations.md, _Carrier B_). It fetches
 * the widget options from the shop, loads the vendor's library from `{widgetUrl}/v6/www/js/library.js` and,
 * when the shopper clicks "Choose pickup point", opens it with `Packeta.Widget.pick(apiKey, callback, options)`.
 * A chosen point is shown and announced with the window event `set-action-result` (`{ address }`), and handed
 * to the checkout with `shipping-option-data` (`{ method: 'carrier-b', pickupPoint }`); closing the picker
 * (`null`) changes nothing. The window event `toggle-carrier-b` clears the shown point and fetches the
 * options again.
 *
 * Started by public/js/checkout.js with `data = { apiKey, widgetUrl, optionsUrl }`.
 */
(function () {
  'use strict';

  var libraries = {};

  function mount(container, data, destination) {
    var choose = element('button', '', 'Choose pickup point');
    choose.type = 'button';
    var chosen = element('p', 'pickup-chosen', '');
    chosen.setAttribute('aria-live', 'polite');
    var status = element('p', 'hint', '');
    status.setAttribute('role', 'status');
    container.append(choose, chosen, status);

    var options;
    function fetchOptions() {
      options = fetch(data.optionsUrl, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }).then(
        function (response) {
          if (!response.ok) throw new Error('options ' + response.status);
          return response.json();
        },
      );
      options.catch(function () {}); // reported when the shopper clicks
    }

    function reset() {
      chosen.textContent = 'No pickup point chosen yet.';
      status.textContent = '';
    }

    function open() {
      status.textContent = '';
      Promise.all([options, library(data.widgetUrl)])
        .then(function (ready) {
          window.Packeta.Widget.pick(data.apiKey, picked, forDestination(ready[0], destination.country));
        })
        .catch(function () {
          status.textContent = 'The pickup-point picker could not be opened. Please try again in a moment.';
        });
    }

    function picked(point) {
      if (!point) return; // closed without choosing
      var address = formatAddress(point);
      chosen.textContent = 'Pickup point: ' + address;
      window.dispatchEvent(new CustomEvent('set-action-result', { detail: { address: address } }));
      window.dispatchEvent(
        new CustomEvent('shipping-option-data', {
          detail: { method: 'carrier-b', pickupPoint: savedPoint(point, address) },
        }),
      );
    }

    function onToggle() {
      reset();
      fetchOptions();
    }

    choose.addEventListener('click', open);
    window.addEventListener('toggle-carrier-b', onToggle);
    reset();
    fetchOptions();
    library(data.widgetUrl).catch(function () {}); // warm up; a failure is reported on click

    return function destroy() {
      window.removeEventListener('toggle-carrier-b', onToggle);
      container.replaceChildren();
    };
  }

  /** The vendor's library, loaded once per URL. */
  function library(widgetUrl) {
    var src = widgetUrl + '/v6/www/js/library.js';
    libraries[src] =
      libraries[src] ||
      new Promise(function (resolve, reject) {
        var script = document.createElement('script');
        script.src = src;
        script.onload = resolve;
        script.onerror = function () {
          delete libraries[src];
          reject(new Error('library'));
        };
        document.head.append(script);
      });
    return libraries[src];
  }

  /** Only the points of the country the parcel goes to, when the widget serves it. */
  function forDestination(options, country) {
    var code = (country || '').toLowerCase();
    var served = String(options.country || '').split(',');
    return served.indexOf(code) >= 0 ? Object.assign({}, options, { country: code }) : options;
  }

  function formatAddress(point) {
    return point.name + ', ' + point.street + ', ' + point.zip + ' ' + point.city;
  }

  /** What the order keeps: `id` for the carrier's own points, `carrierId` + `carrierPickupPointId` for others. */
  function savedPoint(point, address) {
    var saved = {
      pickupPointType: point.pickupPointType,
      name: point.name,
      street: point.street,
      city: point.city,
      zip: point.zip,
      country: point.country,
      address: address,
    };
    if (point.pickupPointType === 'external') {
      saved.carrierId = point.carrierId;
      saved.carrierPickupPointId = point.carrierPickupPointId;
    } else {
      saved.id = point.id;
    }
    return saved;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  window.checkoutWidgets = window.checkoutWidgets || {};
  window.checkoutWidgets['carrier-b-pickup'] = { mount: mount };
})();

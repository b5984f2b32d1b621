/*
 * Carrier A's ParcelShop picker at checkout. It lists the pickup points near
 * a postal code, on start for the delivery address and again on every search. When the shopper picks one it
 * dispatches the window events `carrier-a-shipping-selected` (detail: the point as the endpoint answered it)
 * and `shipping-option-data` (detail: `{ method: 'carrier-a', pickupPoint }`), which the checkout saves.
 *
 * Started by public/js/checkout.js with `data = { pointsUrl, country }`: the endpoint, and the `country` value
 * it is asked with (always the plugin handle, as the original widget does).
 */
(function () {
  'use strict';

  var instances = 0;

  function mount(container, data, destination) {
    var id = 'carrier-a-pickup-' + ++instances;
    var request = 0;

    var search = element('div', 'pickup-search');
    var label = element('label', '', 'Postal code for pickup points');
    label.htmlFor = id + '-zip';
    var zip = element('input');
    zip.id = id + '-zip';
    zip.type = 'search';
    zip.inputMode = 'numeric';
    zip.autocomplete = 'off';
    zip.maxLength = 12;
    zip.value = destination.zipCode || '';
    var searchButton = element('button', '', 'Search');
    searchButton.type = 'button';
    search.append(label, zip, searchButton);

    var status = element('p', 'hint', '');
    status.setAttribute('role', 'status');
    var points = element('fieldset', 'pickup-points');
    points.hidden = true;
    container.append(search, status, points);

    function load() {
      var mine = ++request;
      var code = zip.value.trim();
      status.textContent = 'Looking for pickup points…';
      points.hidden = true;
      var url =
        data.pointsUrl + '&country=' + encodeURIComponent(data.country) + '&zipCode=' + encodeURIComponent(code);
      fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (response) {
          return response.ok ? response.json() : { success: false, points: [] };
        })
        .catch(function () {
          return { success: false, points: [] };
        })
        .then(function (body) {
          if (mine !== request) return; // a later search answers instead
          if (!body.success) {
            status.textContent = 'Pickup points could not be loaded right now. Please try again in a moment.';
          } else if (body.points.length === 0) {
            status.textContent = 'No pickup points near ' + code + '. Try another postal code.';
          } else {
            status.textContent = body.points.length + ' pickup points near ' + code + '. Choose one:';
            list(body.points);
          }
        });
    }

    function list(found) {
      points.replaceChildren(element('legend', 'visually-hidden', 'Pickup point'));
      found.forEach(function (point, index) {
        var option = element('div', 'method pickup-point');
        var radio = element('input');
        radio.type = 'radio';
        radio.name = id;
        radio.id = id + '-' + index;
        radio.value = point.id;
        var text = element('label');
        text.htmlFor = radio.id;
        text.append(
          element('strong', '', point.name),
          element('br'),
          point.street + ', ' + point.zipCode + ' ' + point.city,
          element('br'),
          element('small', '', point.openingHours),
        );
        radio.addEventListener('change', function () {
          choose(point);
        });
        option.append(radio, text);
        points.append(option);
      });
      points.hidden = false;
    }

    function choose(point) {
      window.dispatchEvent(new CustomEvent('carrier-a-shipping-selected', { detail: point }));
      window.dispatchEvent(
        new CustomEvent('shipping-option-data', { detail: { method: 'carrier-a', pickupPoint: point } }),
      );
    }

    searchButton.addEventListener('click', load);
    zip.addEventListener('keydown', function (event) {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      load();
    });
    load();

    return function destroy() {
      request++;
      container.replaceChildren();
    };
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  window.checkoutWidgets = window.checkoutWidgets || {};
  window.checkoutWidgets['carrier-a-pickup'] = { mount: mount };
})();

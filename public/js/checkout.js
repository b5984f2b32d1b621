/*
 * The checkout page (views/shop/checkout/page.hbs): saves the shopper's details, lists the shipping and payment
 * methods for the destination, starts a method's widget (a carrier's pickup-point picker) and places the order,
 * all through the JSON endpoints under /shop/checkout/ (docs/http-contract.md).
 *
 * Delivery time: while the shop offers delivery slots, a method delivering to the door (no pickup point) lets the
 * shopper pick a day and one of its slots, saved with the shipping method. A VAT id is checked with the EU VAT
 * service once typed, when the shop checks existence.
 *
 * Address book: a logged-in customer's pickers fill an address from a saved entry at once (without JavaScript their
 * button reloads the page with it); the "save this address" box goes with place-order.
 *
 * Widgets: a shipping method entry may carry `widget: { name, script, data }`. The script registers
 * `window.checkoutWidgets[name] = { mount(container, data, destination) → destroy() }`; once the shopper has
 * chosen, the widget dispatches the window event `shipping-option-data` with `{ method, pickupPoint }`, and
 * this page saves the point with the shipping method.
 */
(function () {
  'use strict';

  var form = document.getElementById('checkout-form');
  if (!form) return;
  var message = document.getElementById('checkout-message');
  var shippingList = document.getElementById('checkout-shipping-methods');
  var paymentList = document.getElementById('checkout-payment-methods');
  var sameAsBilling = document.getElementById('checkout-sameAsBilling');
  var shippingAddress = document.getElementById('checkout-shipping-address');
  var placeButton = document.getElementById('checkout-place-order');
  var deliveryBox = document.getElementById('checkout-delivery');
  var deliveryDate = document.getElementById('checkout-deliveryDate');
  var deliverySlots = document.getElementById('checkout-delivery-slots');
  var vatField = document.getElementById('checkout-vatId');
  var vatStatus = document.getElementById('checkout-vatId-status');
  /** The page's messages in its language (data attributes of #checkout-messages). */
  var text = document.getElementById('checkout-messages').dataset;
  var money = new Intl.NumberFormat(form.dataset.locale || 'en', {
    style: 'currency',
    currency: form.dataset.currency,
    minimumFractionDigits: Number(form.dataset.decimals),
    maximumFractionDigits: Number(form.dataset.decimals),
  });

  var state = {
    csrfToken: null,
    /** The destination the methods are listed for. */
    country: null,
    zipCode: '',
    shippingMethods: [],
    shippingMethod: form.dataset.shippingMethod || '',
    /** What the cart holds: a pickup-point method is saved only once its point is chosen. */
    savedShippingMethod: form.dataset.shippingMethod || '',
    paymentMethod: form.dataset.paymentMethod || '',
    total: null,
    /** The mounted widget's clean-up, while one is shown. */
    destroyWidget: null,
    /** The delivery slot the cart holds (id as text, '' for none) and its day. */
    deliverySlotId: deliveryBox ? deliveryBox.dataset.slotId : '',
    deliveryDate: deliveryBox ? deliveryBox.dataset.date : '',
  };
  var widgetScripts = {};

  // ---- talking to the endpoints -------------------------------------------------------------------------

  function csrfToken() {
    if (state.csrfToken) return Promise.resolve(state.csrfToken);
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta && meta.content) return Promise.resolve((state.csrfToken = meta.content));
    return getJson('/shop/customer/csrf-token').then(function (body) {
      return (state.csrfToken = body.csrfToken);
    });
  }

  function answer(response) {
    return response
      .json()
      .catch(function () {
        return { success: false, error: { message: text.badAnswer } };
      })
      .then(function (body) {
        if (!response.ok || body.success === false) throw body.error || { message: text.failed };
        return body;
      });
  }

  function getJson(url) {
    return fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }).then(answer);
  }

  function postJson(url, body) {
    return csrfToken().then(function (token) {
      return fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
          'X-CSRF-Token': token,
        },
        body: JSON.stringify(body),
      }).then(answer);
    });
  }

  // ---- messages and field errors ------------------------------------------------------------------------

  function showError(error) {
    clearFieldErrors();
    var fields = (error && error.fields) || {};
    Object.keys(fields).forEach(function (path) {
      var field = form.querySelector('[name="' + fieldName(path) + '"]');
      if (!field) return;
      field.setAttribute('aria-invalid', 'true');
      var note = document.createElement('small');
      note.className = 'field-error';
      note.id = field.id + '-error';
      note.textContent = fields[path].join('; ');
      field.setAttribute('aria-describedby', note.id);
      field.insertAdjacentElement('afterend', note);
    });
    message.textContent = (error && error.message) || text.failed;
    message.hidden = false;
    message.scrollIntoView({ block: 'nearest' });
  }

  function clearFieldErrors() {
    message.hidden = true;
    form.querySelectorAll('.field-error').forEach(function (note) {
      note.remove();
    });
    form.querySelectorAll('[aria-invalid]').forEach(function (field) {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    });
  }

  /** `billingAddress.zipCode` → `billingAddress[zipCode]`, the form's naming. */
  function fieldName(path) {
    var parts = path.split('.');
    return (
      parts[0] +
      parts
        .slice(1)
        .map(function (part) {
          return '[' + part + ']';
        })
        .join('')
    );
  }

  // ---- totals ---------------------------------------------------------------------------------------------

  function showTotals(cart) {
    state.total = cart.total;
    ['subtotal', 'discount', 'shipping', 'paymentFee', 'tax', 'total', 'giftCardTotal', 'amountDue'].forEach(
      function (key) {
        var cell = form.querySelector('[data-amount="' + key + '"]');
        if (!cell) return;
        cell.textContent = (cell.dataset.negative ? '−' : '') + money.format(cart[key] || 0);
      },
    );
    if (cart.reverseCharge) form.querySelector('[data-amount="tax"]').textContent = text.reverseCharge;
    form.querySelectorAll('[data-row]').forEach(function (row) {
      row.hidden = !(cart[row.dataset.row] > 0);
    });
  }

  // ---- details ----------------------------------------------------------------------------------------------

  function details() {
    var body = { sameAsBilling: sameAsBilling.checked };
    new FormData(form).forEach(function (value, name) {
      var nested = /^(billingAddress|shippingAddress)\[(\w+)\]$/.exec(name);
      if (nested) {
        body[nested[1]] = body[nested[1]] || {};
        if (value !== '') body[nested[1]][nested[2]] = value;
      } else if (
        ['email', 'notes', 'vatId', 'companyName', 'marketingConsent', 'marketingOptOut'].indexOf(name) >= 0 &&
        value !== ''
      ) {
        body[name] = value;
      }
    });
    if (body.sameAsBilling) delete body.shippingAddress;
    return body;
  }

  function destination(body) {
    var address = body.sameAsBilling ? body.billingAddress : body.shippingAddress;
    return address || {};
  }

  /** Saves the details; lists the shipping methods again when the destination changed (answers true then). */
  function saveDetails() {
    var body = details();
    return postJson('/shop/checkout/save', body).then(function (answerBody) {
      clearFieldErrors();
      showTotals(answerBody.cart);
      var to = destination(body);
      var zip = to.zipCode || '';
      if (to.country === state.country && zip === state.zipCode) return false;
      state.country = to.country;
      state.zipCode = zip;
      return loadShippingMethods().then(function () {
        return true;
      });
    });
  }

  // ---- address book ---------------------------------------------------------------------------------------

  var ADDRESS_FIELDS = ['firstName', 'lastName', 'company', 'street', 'zipCode', 'city', 'country', 'phone'];

  document.querySelectorAll('select[data-address-picker]').forEach(function (picker) {
    var prefix = picker.dataset.addressPicker;
    var fields = ADDRESS_FIELDS.map(function (name) {
      return form.querySelector('[name="' + prefix + '[' + name + ']"]');
    });
    // The choice applies at once: the reload button is for browsers without this script.
    picker.parentNode.querySelector('button').remove();
    picker.addEventListener('change', function () {
      var option = picker.selectedOptions[0];
      if (!option || !option.dataset.address) return;
      var address = JSON.parse(option.dataset.address);
      fields.forEach(function (field, index) {
        field.value = address[ADDRESS_FIELDS[index]] || '';
      });
    });
    // Typed over, the address is no longer the saved one.
    fields.forEach(function (field) {
      field.addEventListener('input', function () {
        picker.value = '';
      });
    });
  });

  sameAsBilling.addEventListener('change', function () {
    shippingAddress.hidden = sameAsBilling.checked;
    shippingAddress.disabled = sameAsBilling.checked;
  });

  var saveDetailsButton = document.getElementById('checkout-save-details');
  saveDetailsButton.addEventListener('click', function () {
    saveDetails().catch(showError);
  });
  // Enter in a details field continues to shipping; only the order button places the order.
  saveDetailsButton.closest('section').addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' || event.target.tagName !== 'INPUT') return;
    event.preventDefault();
    saveDetailsButton.click();
  });

  // ---- shipping methods -------------------------------------------------------------------------------------

  function loadShippingMethods() {
    return getJson('/shop/checkout/get-shipping-methods?code=' + encodeURIComponent(state.country)).then(
      function (body) {
        state.shippingMethods = body.shipping_methods;
        renderShippingMethods();
      },
    );
  }

  function renderShippingMethods() {
    unmountWidget();
    clearList(shippingList);
    if (state.shippingMethods.length === 0) {
      shippingList.append(hint(text.noShipping));
      clearList(paymentList);
      return;
    }
    showDelivery(null);
    state.shippingMethods.forEach(function (entry) {
      shippingList.append(
        methodOption('shippingMethod', entry.value, entry.name, money.format(entry.price), entry.description),
      );
    });
    var chosen = entryFor(state.shippingMethod);
    if (chosen) {
      shippingList.querySelector('input[value="' + chosen.value + '"]').checked = true;
      chooseShippingMethod(chosen, { saved: true });
    } else {
      clearList(paymentList);
      paymentList.append(hint(text.chooseShippingFirst));
    }
  }

  function entryFor(value) {
    return state.shippingMethods.filter(function (entry) {
      return entry.value === value;
    })[0];
  }

  shippingList.addEventListener('change', function (event) {
    if (event.target.name !== 'shippingMethod') return;
    chooseShippingMethod(entryFor(event.target.value), { saved: false });
  });

  /**
   * A method without pickup points is saved at once; one with pickup points once its widget reports the point.
   * `saved`: the cart already has this method (the page was reloaded), so nothing needs saving yet.
   */
  function chooseShippingMethod(entry, options) {
    unmountWidget();
    state.shippingMethod = entry.value;
    var saving = options.saved || entry.pickupPoints ? Promise.resolve() : saveShippingMethod({});
    if (entry.pickupPoints) mountWidget(entry);
    showDelivery(entry, options.saved);
    return saving.then(loadPaymentMethods).catch(showError);
  }

  function saveShippingMethod(extra) {
    var body = Object.assign({ shippingMethod: state.shippingMethod }, extra);
    return postJson('/shop/checkout/save-shipping-method', body).then(function (answerBody) {
      state.savedShippingMethod = body.shippingMethod;
      state.deliverySlotId = body.deliverySlotId ? String(body.deliverySlotId) : '';
      state.deliveryDate = body.deliveryDate || '';
      clearFieldErrors();
      showTotals(answerBody.cart);
    });
  }

  // A widget reports the shopper's pickup point; it belongs to the method chosen now, if that is its carrier's.
  window.addEventListener('shipping-option-data', function (event) {
    var entry = entryFor(state.shippingMethod);
    var detail = event.detail || {};
    if (!entry || entry.type !== detail.method) return;
    saveShippingMethod({ pickupPoint: detail.pickupPoint }).catch(showError);
  });

  // ---- delivery time ------------------------------------------------------------------------------------------

  /**
   * Offers the delivery day and slot for a door-delivery method (none for pickup points or no method). A newly
   * chosen method was saved without a slot; a reloaded page shows the slot the cart still holds.
   */
  function showDelivery(entry, saved) {
    if (!deliveryBox) return;
    var offered = Boolean(entry && !entry.pickupPoints);
    deliveryBox.hidden = !offered;
    deliveryBox.disabled = !offered;
    if (!offered) return;
    if (!saved) state.deliverySlotId = '';
    if (deliveryDate.value) loadSlots().catch(showError);
  }

  function loadSlots() {
    var date = deliveryDate.value;
    return getJson('/shop/checkout/get-shipping-delivery-slots?date=' + encodeURIComponent(date)).then(function (body) {
      if (deliveryDate.value !== date) return;
      clearList(deliverySlots);
      if (body.slots.length === 0) {
        deliverySlots.append(hint(text.noSlots));
        return;
      }
      var chosen = date === state.deliveryDate ? state.deliverySlotId : '';
      deliverySlots.append(slotOption('', text.noPreference, true, chosen === ''));
      body.slots.forEach(function (slot) {
        var label = slot.available ? slot.label : fill(text.slotFull, { label: slot.label });
        deliverySlots.append(slotOption(String(slot.id), label, slot.available, chosen === String(slot.id)));
      });
    });
  }

  function slotOption(value, label, available, checked) {
    var option = methodOption('deliverySlotId', value || 'none', label, '', '');
    var input = option.querySelector('input');
    input.value = value;
    input.disabled = !available;
    input.checked = checked;
    return option;
  }

  if (deliveryDate) {
    deliveryDate.addEventListener('change', function () {
      // A slot held for another day no longer applies: the cart lets it go, the list offers the new day's.
      if (state.deliverySlotId) saveShippingMethod({}).catch(showError);
      clearList(deliverySlots);
      if (deliveryDate.value) loadSlots().catch(showError);
      else deliverySlots.append(hint(text.chooseDay));
    });
    deliverySlots.addEventListener('change', function (event) {
      if (event.target.name !== 'deliverySlotId') return;
      var slot = event.target.value
        ? { deliverySlotId: Number(event.target.value), deliveryDate: deliveryDate.value }
        : {};
      saveShippingMethod(slot).catch(function (error) {
        showError(error);
        loadSlots().catch(showError);
      });
    });
  }

  // ---- VAT id ---------------------------------------------------------------------------------------------------

  function checkVatId() {
    var vatId = vatField.value.trim();
    var country = form.querySelector('[name="billingAddress[country]"]').value;
    vatStatus.textContent = '';
    vatStatus.className = 'vat-status';
    if (!vatId) return;
    postJson('/shop/checkout/validate-vat', { vatId: vatId, country: country })
      .then(function (body) {
        if (vatField.value.trim() !== vatId) return;
        vatStatus.textContent = body.valid ? fill(text.vatValid, { name: body.name }) : body.message;
        vatStatus.className = 'vat-status ' + (body.valid ? 'vat-valid' : 'field-error');
      })
      .catch(function (error) {
        vatStatus.textContent = (error && error.message) || text.vatUnchecked;
      });
  }

  if (form.dataset.vatCheck) {
    vatField.addEventListener('change', checkVatId);
    form.querySelector('[name="billingAddress[country]"]').addEventListener('change', checkVatId);
  }

  // ---- widgets ---------------------------------------------------------------------------------------------

  function mountWidget(entry) {
    var option = shippingList.querySelector('input[value="' + entry.value + '"]').closest('.method');
    var container = document.createElement('div');
    container.className = 'shipping-widget';
    option.append(container);
    if (!entry.widget) {
      container.append(hint(text.noPickupWidget));
      return;
    }
    loadWidget(entry.widget)
      .then(function (widget) {
        if (!container.isConnected) return;
        state.destroyWidget = widget.mount(container, entry.widget.data, {
          country: state.country,
          zipCode: state.zipCode,
        });
      })
      .catch(function () {
        container.replaceChildren(hint(text.widgetFailed));
      });
  }

  function unmountWidget() {
    if (state.destroyWidget) state.destroyWidget();
    state.destroyWidget = null;
    shippingList.querySelectorAll('.shipping-widget').forEach(function (container) {
      container.remove();
    });
  }

  /** Loads a widget's script once; only the shop's own scripts are loaded. */
  function loadWidget(widget) {
    if (!/^\/public\/js\/[\w-]+\.js$/.test(widget.script)) return Promise.reject(new Error('unexpected script'));
    widgetScripts[widget.script] =
      widgetScripts[widget.script] ||
      new Promise(function (resolve, reject) {
        var script = document.createElement('script');
        script.src = widget.script;
        script.onload = resolve;
        script.onerror = reject;
        document.head.append(script);
      });
    return widgetScripts[widget.script].then(function () {
      var registered = (window.checkoutWidgets || {})[widget.name];
      if (!registered) throw new Error('widget ' + widget.name + ' did not register');
      return registered;
    });
  }

  // ---- payment methods ---------------------------------------------------------------------------------------

  function loadPaymentMethods() {
    var query =
      '?code=' + encodeURIComponent(state.country) + '&shipping-method=' + encodeURIComponent(state.shippingMethod);
    return getJson('/shop/checkout/get-payment-methods' + query).then(function (body) {
      clearList(paymentList);
      body.payment_methods.forEach(function (entry) {
        var price = entry.price > 0 ? '+ ' + money.format(entry.price) : '';
        paymentList.append(methodOption('paymentMethod', entry.code, entry.name, price, entry.description));
      });
      if (body.payment_methods.length === 0) paymentList.append(hint(text.noPayment));
      var chosen = paymentList.querySelector('input[value="' + cssEscape(state.paymentMethod) + '"]');
      if (chosen) chosen.checked = true;
    });
  }

  paymentList.addEventListener('change', function (event) {
    if (event.target.name !== 'paymentMethod') return;
    state.paymentMethod = event.target.value;
    postJson('/shop/checkout/save-payment-method', { paymentMethod: state.paymentMethod })
      .then(function (body) {
        clearFieldErrors();
        showTotals(body.cart);
      })
      .catch(showError);
  });

  // ---- placing the order ---------------------------------------------------------------------------------------

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    if (!form.querySelector('input[name="shippingMethod"]:checked')) {
      showError({ message: text.chooseShipping });
      return;
    }
    if (!form.querySelector('input[name="paymentMethod"]:checked')) {
      showError({ message: text.choosePayment });
      return;
    }
    placeButton.disabled = true;
    var acceptTerms = document.getElementById('checkout-acceptTerms');
    var termsVersion = document.getElementById('checkout-termsVersion');
    saveDetails()
      .then(function (destinationChanged) {
        if (destinationChanged) throw { message: text.addressChanged };
        if (state.savedShippingMethod !== state.shippingMethod) {
          throw { message: fill(text.choosePickupPoint, { method: entryFor(state.shippingMethod).name }) };
        }
        var saveToBook = document.getElementById('checkout-saveToAddressBook');
        return postJson('/shop/checkout/place-order', {
          expectedTotal: state.total,
          saveToAddressBook: Boolean(saveToBook && saveToBook.checked),
          acceptTerms: Boolean(acceptTerms && acceptTerms.checked),
          termsVersion: termsVersion ? Number(termsVersion.value) : undefined,
        });
      })
      .then(function (body) {
        window.location.assign(body.redirect);
      })
      .catch(function (error) {
        placeButton.disabled = false;
        if (error && error.code === 'terms_changed' && termsVersion && acceptTerms) {
          // New terms: the box is ticked again only after reading them (the link shows the current version).
          termsVersion.value = String(error.termsVersion);
          acceptTerms.checked = false;
        }
        showError(error);
      });
  });

  // ---- markup helpers --------------------------------------------------------------------------------------------

  function methodOption(name, value, label, price, description) {
    var id = name + '-' + value.replace(/[^\w-]/g, '-');
    var option = document.createElement('div');
    option.className = 'method';
    var input = document.createElement('input');
    input.type = 'radio';
    input.name = name;
    input.value = value;
    input.id = id;
    var text = document.createElement('label');
    text.htmlFor = id;
    var title = document.createElement('strong');
    title.textContent = label;
    text.append(title);
    if (price) text.append(' ', price);
    if (description) {
      var about = document.createElement('small');
      about.textContent = description;
      text.append(document.createElement('br'), about);
    }
    option.append(input, text);
    return option;
  }

  function hint(message) {
    var paragraph = document.createElement('p');
    paragraph.className = 'hint';
    paragraph.textContent = message;
    return paragraph;
  }

  /** A message's `{name}` placeholders filled in. */
  function fill(message, values) {
    return message.replace(/\{(\w+)\}/g, function (placeholder, name) {
      return name in values ? values[name] : placeholder;
    });
  }

  /** Empties a method list, keeping its legend. */
  function clearList(list) {
    Array.from(list.children).forEach(function (child) {
      if (child.tagName !== 'LEGEND') child.remove();
    });
  }

  function cssEscape(value) {
    return window.CSS && CSS.escape ? CSS.escape(value) : value;
  }

  // ---- start ------------------------------------------------------------------------------------------------------

  if (form.dataset.detailsSaved) {
    var to = destination(details());
    state.country = to.country;
    state.zipCode = to.zipCode || '';
    loadShippingMethods().catch(showError);
  }
})();

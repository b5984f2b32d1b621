/*
 * Every shop page (views/layouts/shop.hbs). Pages shared-cached for guests carry nothing personal, so this
 * script fetches what is: the mini-cart count (section-load) and, when a form is sent, the CSRF token.
 * It also sends the currency and language switches on change, adds to the cart without leaving the page
 * (the add-to-cart popup) and shows the chosen variant's price and stock.
 * Everything here is an enhancement: each form works as a plain HTML post without it.
 *
 * For other page scripts: window.shop.csrfToken() → Promise<string>, window.shop.refreshMiniCart(), or
 * document.dispatchEvent(new CustomEvent('shop:cart-changed')) after changing the cart.
 */
(function () {
  'use strict';

  var tokenRequest = null;

  function csrfToken() {
    if (!tokenRequest) {
      var meta = document.querySelector('meta[name="csrf-token"]');
      tokenRequest =
        meta && meta.content
          ? Promise.resolve(meta.content)
          : getJson('/shop/customer/csrf-token').then(function (body) {
              return body.csrfToken;
            });
      tokenRequest.catch(function () {
        tokenRequest = null;
      });
    }
    return tokenRequest;
  }

  function getJson(url) {
    return fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }).then(function (res) {
      if (!res.ok) throw new Error('HTTP ' + res.status);
      return res.json();
    });
  }

  function fillCsrfFields(token) {
    document.querySelectorAll('input[data-csrf]').forEach(function (field) {
      if (!field.value) field.value = token;
    });
  }

  /** Sends a form as a browser post, with the CSRF token filled in first if the cached page had none. */
  function submitWithToken(form) {
    var field = form.querySelector('input[data-csrf]');
    if (!field || field.value) return form.submit();
    csrfToken().then(
      function (token) {
        fillCsrfFields(token);
        form.submit();
      },
      function () {
        form.submit(); // the shop answers with its own "reload and try again" page
      },
    );
  }

  // ---- mini-cart ----------------------------------------------------------------------------------------

  function refreshMiniCart() {
    var counts = document.querySelectorAll('[data-minicart-count]');
    if (!counts.length) return;
    getJson('/shop/customer/section-load/mini-cart').then(
      function (section) {
        counts.forEach(function (count) {
          count.textContent = String(section.itemCount);
        });
      },
      function () {
        /* the count stays empty; the cart link still works */
      },
    );
  }

  // ---- add to cart ----------------------------------------------------------------------------------------

  function showAdded(product) {
    var popup = document.getElementById('cart-popup');
    if (!popup || typeof popup.showModal !== 'function') return;
    var template = popup.getAttribute('data-added') || '';
    popup.querySelector('[data-popup-message]').textContent = template
      .replace('{qty}', String(product.qty))
      .replace('{name}', product.name);
    popup.showModal();
  }

  function showFormError(form, message) {
    var error = form.querySelector('.form-error');
    if (!error) {
      error = document.createElement('p');
      error.className = 'form-error';
      error.setAttribute('role', 'alert');
      form.appendChild(error);
    }
    error.textContent = message;
  }

  /**
   * The Idempotency-Key of an add: a new one for each add the shopper means, the same one when they try again the
   * same add whose answer never came (a lost connection, a 503), so the shop does not add it twice.
   */
  function addKey(form, body) {
    if (form.addKeyFor !== body) {
      var bytes = crypto.getRandomValues(new Uint8Array(16));
      form.addKey = Array.prototype.map
        .call(bytes, function (byte) {
          return (byte + 256).toString(16).slice(1);
        })
        .join('');
      form.addKeyFor = body;
    }
    return form.addKey;
  }

  function addToCart(form) {
    var button = form.querySelector('button[type="submit"]');
    var failed = (document.getElementById('cart-popup') || form).getAttribute('data-failed') || 'Error';
    if (button) button.disabled = true;
    csrfToken()
      .then(function (token) {
        fillCsrfFields(token);
        var body = new URLSearchParams(new FormData(form)).toString();
        return fetch(form.action, {
          method: 'POST',
          credentials: 'same-origin',
          headers: {
            Accept: 'application/json',
            'Content-Type': 'application/x-www-form-urlencoded',
            'X-Requested-With': 'XMLHttpRequest',
            'X-CSRF-Token': token,
            'Idempotency-Key': addKey(form, body),
          },
          body: body,
        });
      })
      .then(function (res) {
        // Answered: the next click is a new add (a 503 was not, and keeps its key).
        if (res.status !== 503) form.addKeyFor = undefined;
        return res.json().catch(function () {
          return { success: false };
        });
      })
      .then(
        function (body) {
          if (!body.success) {
            showFormError(form, (body.error && body.error.message) || failed);
            return;
          }
          var error = form.querySelector('.form-error');
          if (error) error.remove();
          refreshMiniCart();
          showAdded(body.product);
        },
        function () {
          showFormError(form, failed);
        },
      )
      .then(function () {
        if (button) button.disabled = false;
      });
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== 'post') return;
    if (form.hasAttribute('data-ajax-cart')) {
      event.preventDefault();
      addToCart(form);
      return;
    }
    var field = form.querySelector('input[data-csrf]');
    if (field && !field.value) {
      event.preventDefault();
      submitWithToken(form);
    }
  });

  // ---- currency and language switches --------------------------------------------------------------------

  document.querySelectorAll('.currency-switch select, .language-switch select').forEach(function (select) {
    select.addEventListener('change', function () {
      submitWithToken(select.form);
    });
  });

  // ---- product page: the chosen variant (its picture: product-media.js) ------------------------------------

  var optionSelects = Array.prototype.slice.call(document.querySelectorAll('[data-product-option]'));
  function showChosenVariant() {
    var key = optionSelects
      .map(function (select) {
        return select.value;
      })
      .join('|');
    var row = document.querySelector('tr[data-variant="' + CSS.escape(key) + '"]');
    if (!row) return;
    var price = document.querySelector('[data-product-price]');
    var stock = document.querySelector('[data-product-stock]');
    if (price) price.innerHTML = row.querySelector('[data-variant-price]').innerHTML;
    var unitPrice = document.querySelector('[data-product-unit-price]');
    var variantUnitPrice = row.querySelector('[data-variant-unit-price]');
    if (unitPrice && variantUnitPrice) unitPrice.textContent = variantUnitPrice.textContent;
    if (stock) stock.innerHTML = row.querySelector('[data-variant-stock]').innerHTML;
    var button = optionSelects[0].form.querySelector('button[type="submit"]');
    if (button) button.disabled = Boolean(row.querySelector('.stock-out'));
  }
  optionSelects.forEach(function (select) {
    select.addEventListener('change', showChosenVariant);
  });

  // ---- start -----------------------------------------------------------------------------------------------

  document.addEventListener('shop:cart-changed', refreshMiniCart);
  document.querySelectorAll('[data-popup-close]').forEach(function (button) {
    button.addEventListener('click', function () {
      button.closest('dialog').close();
    });
  });
  window.shop = {
    csrfToken: csrfToken,
    refreshMiniCart: refreshMiniCart,
    formatPrice: function (amount, currency, decimals) {
      return new Intl.NumberFormat(document.documentElement.lang || 'en', {
        style: 'currency',
        currency: currency,
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      }).format(amount);
    },
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', refreshMiniCart);
  else refreshMiniCart();
})();

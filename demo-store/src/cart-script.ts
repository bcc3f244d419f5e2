/*
 * The demo store's cart: a small inline script (written here, no catalog data in it) that keeps the cart in
 * localStorage, renders it with textContent, and reports AddToCart, OrderComplete and Purchase through the head
 * script's public API. It also registers itself as the widget's cart hook, so that "Add to cart" in the
 * complete-the-look popup fills this cart; the widget reports those AddToCart events itself, so the hook does
 * not. The head script loads async, so calls go through its queue until it has arrived:
 * window.StorefrontSearch = { q: [["track", type, data], ["setCartHook", fn]] }.
 */
export const CART_SCRIPT = `
(function () {
  var KEY = "demo-cart";
  function call(name, a, b) {
    var s = window.StorefrontSearch;
    if (s && typeof s[name] === "function") { s[name](a, b); return; }
    s = window.StorefrontSearch = s || { q: [] };
    (s.q = s.q || []).push([name, a, b]);
  }
  function track(type, data) { call("track", type, data); }
  function load() {
    try { var v = JSON.parse(localStorage.getItem(KEY) || "[]"); return Array.isArray(v) ? v : []; } catch (e) { return []; }
  }
  function save(items) { try { localStorage.setItem(KEY, JSON.stringify(items)); } catch (e) {} }
  function count(items) { var n = 0; items.forEach(function (i) { n += i.qty; }); return n; }
  function money(n) { return "\\u20b9" + Number(n).toLocaleString("en-IN"); }
  function showCount() {
    var el = document.getElementById("cart-count");
    if (el) el.textContent = String(count(load()));
  }
  function addItem(id, name, price) {
    var items = load();
    var found = items.filter(function (i) { return i.id === id; })[0];
    if (found) found.qty += 1; else items.push({ id: id, name: name, price: price, qty: 1 });
    save(items);
    showCount();
  }
  // Registered at once (not on DOMContentLoaded): the head script may start before the page has loaded.
  call("setCartHook", function (item) { addItem(item.productId, item.name, Number(item.price) || 0); return true; });
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function renderCart(target, items) {
    target.replaceChildren();
    if (!items.length) { target.appendChild(el("p", "Your cart is empty.", "cart-empty")); return 0; }
    var list = el("ul", undefined, "cart-list");
    var total = 0;
    items.forEach(function (i) {
      var li = el("li", undefined, "cart-item");
      li.dataset.productId = i.id;
      var a = el("a", i.name, "cart-name");
      a.href = "/products/" + encodeURIComponent(i.id);
      li.appendChild(a);
      li.appendChild(el("span", " \\u00d7 " + i.qty + " ", "cart-qty"));
      li.appendChild(el("span", money(i.price * i.qty), "price"));
      list.appendChild(li);
      total += i.price * i.qty;
    });
    target.appendChild(list);
    target.appendChild(el("p", "Total " + money(total), "cart-total"));
    return total;
  }
  function start() {
    showCount();
    var add = document.getElementById("add-to-cart");
    if (add) add.addEventListener("click", function () {
      var d = add.dataset;
      var price = Number(d.price) || 0;
      addItem(d.productId, d.name, price);
      track("AddToCart", { addProductId: d.productId, qty: 1, price: price });
      var status = document.getElementById("cart-status");
      if (status) status.textContent = "Added to cart";
    });
    var cart = document.getElementById("cart-items");
    if (cart) renderCart(cart, load());
    var place = document.getElementById("place-order");
    if (place) {
      if (!load().length) place.disabled = true;
      place.addEventListener("click", function () {
        var items = load();
        if (!items.length) return;
        var orderId = "order-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 8);
        var products = items.map(function (i) { return { id: i.id, price: i.price, qty: i.qty }; });
        track("OrderComplete", { orderId: orderId, products: products });
        track("Purchase", { orderId: orderId, products: products });
        save([]);
        showCount();
        place.disabled = true;
        var done = document.getElementById("order-confirmation");
        if (done) { done.hidden = false; done.textContent = "Thank you! Your order " + orderId + " is placed."; done.dataset.orderId = orderId; }
      });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
`;

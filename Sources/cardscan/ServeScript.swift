extension ServePage {
    /// The page's script: the events stream, the cards, one card's chart, spending and trips.
    static let script = #"""
        "use strict";
        const token = document.querySelector('meta[name="cardscan-token"]').content;
        const kiosk = document.body.dataset.view === "kiosk";
        const $ = (id) => document.getElementById(id);
        const words = { empty: "hold a card", reading: "reading…", read: "read", partial: "partial read", failed: "could not read", unavailable: "unavailable" };
        function money(amount, currency) {
          try { return new Intl.NumberFormat("en", { style: "currency", currency }).format(amount / 10 ** new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits); }
          catch (e) { return amount + " " + currency; }
        }
        function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
        function row(cells, head) { const tr = el("tr"); for (const c of cells) { const td = el(head ? "th" : "td", c.text ?? c); if (c.cls) td.className = c.cls; tr.append(td); } return tr; }
        const readers = new Map();
        function showReaders() {
          const ul = $("readers"); if (!ul) return; ul.replaceChildren();
          for (const [name, r] of readers) { const li = el("li", name + ": " + (words[r.state] || r.state) + (r.detail ? " — " + r.detail : "")); li.className = "state-" + r.state; ul.append(li); }
        }
        let clearing;
        function onReport(e) {
          const r = e.report;
          if (kiosk) {
            clearTimeout(clearing);
            $("kiosk-prompt").textContent = r ? "" : "Could not read the card";
            $("kiosk-name").textContent = r ? r.name : "";
            $("kiosk-balance").textContent = r && r.balance ? money(r.balance.amount, r.balance.currency) : "";
            clearing = setTimeout(() => { $("kiosk-prompt").textContent = "Hold your card here"; $("kiosk-name").textContent = ""; $("kiosk-balance").textContent = ""; }, 5000);
            return;
          }
          $("last").hidden = false;
          const box = $("last-report"); box.replaceChildren();
          if (r) {
            box.append(el("p", r.name + (r.card && r.card.number ? " " + r.card.number : ""), "card-title"));
            if (r.balance) box.append(el("p", money(r.balance.amount, r.balance.currency), "balance"));
            if (r.partial) box.append(el("p", "partial read: " + (e.error || "the card left"), "state-partial"));
          } else box.append(el("p", e.error || "could not read", "state-failed"));
          loadCards().then(() => { if (e.card && (shown === e.card || shown === null)) showCard(e.card); });
        }
        const events = new EventSource("/api/events");
        events.onmessage = (m) => {
          const e = JSON.parse(m.data);
          if (e.type === "reader") { readers.set(e.reader, e); showReaders(); }
          if (e.type === "report") onReport(e);
        };
        let shown = null, current = null;
        async function loadCards() {
          if (kiosk) return;
          const cards = await (await fetch("/api/cards")).json();
          const ul = $("cards"); ul.replaceChildren();
          if (!cards.length) ul.append(el("li", "no card kept yet", "dim"));
          for (const c of cards) {
            const b = el("button", c.name + " " + (c.number || "") + (c.balance ? " — " + money(c.balance.amount, c.balance.currency) : "") + " (" + c.trips + " trips)", "card");
            b.type = "button"; b.onclick = () => showCard(c.id); const li = el("li"); li.append(b); ul.append(li);
          }
        }
        async function showCard(id) {
          shown = id;
          const q = new URLSearchParams({ from: $("from").value, to: $("to").value, kind: $("kind").value });
          current = await (await fetch("/api/cards/" + id + "?" + q)).json();
          $("card").hidden = false;
          $("card-name").textContent = current.card.name + " " + (current.card.number || "");
          $("card-balance").textContent = current.card.balance ? money(current.card.balance.amount, current.card.balance.currency) : "";
          $("csv").href = "/api/cards/" + id + "/trips.csv";
          const chosen = $("kind").value;
          $("kind").replaceChildren(el("option", "all")); $("kind").firstChild.value = "";
          for (const k of current.kinds) { const o = el("option", k); o.value = k; $("kind").append(o); }
          $("kind").value = chosen;
          chart(); spending(); trips();
        }
        function chart() {
          const svg = $("chart"); svg.replaceChildren();
          const points = current.balances.filter((p) => p.balance);
          if (!points.length) return;
          const values = points.map((p) => p.balance.amount), lo = Math.min(...values), hi = Math.max(...values);
          const x = (i) => points.length === 1 ? 300 : 20 + i * 560 / (points.length - 1), y = (v) => hi === lo ? 80 : 140 - (v - lo) * 120 / (hi - lo);
          const ns = "http://www.w3.org/2000/svg", line = document.createElementNS(ns, "polyline");
          line.setAttribute("points", points.map((p, i) => x(i) + "," + y(p.balance.amount)).join(" ")); svg.append(line);
          points.forEach((p, i) => { const c = document.createElementNS(ns, "circle"); c.setAttribute("cx", x(i)); c.setAttribute("cy", y(p.balance.amount)); c.setAttribute("r", 4); c.setAttribute("data-amount", p.balance.amount); svg.append(c); });
        }
        function spending() {
          const table = $("spending"); table.replaceChildren(row(["period", "spent"], true));
          for (const p of current.spending) table.append(row([p.period, { text: money(p.amount, p.currency), cls: "money" }]));
        }
        function trips() {
          const table = $("trips");
          const keys = [...new Set(current.trips.flatMap((t) => Object.keys(t)))];
          table.replaceChildren(row(keys, true));
          for (const t of current.trips) {
            table.append(row(keys.map((k) => k === "amount" && t[k] !== undefined ? { text: money(t[k], t.currency || current.card.balance?.currency || "XXX"), cls: "money" } : String(t[k] ?? ""))));
          }
        }
        if (!kiosk) {
          for (const id of ["from", "to", "kind"]) $(id).onchange = () => showCard(shown);
          $("forget").onclick = async () => {
            if (!current || !confirm("Forget everything about this card?")) return;
            await fetch("/api/cards/" + shown + "/forget", { method: "POST", headers: { "X-Cardscan-Token": token } });
            $("card").hidden = true; shown = null; loadCards();
          };
          loadCards();
        }
        """#
}

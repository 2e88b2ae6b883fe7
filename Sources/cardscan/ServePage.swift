/// The page `serve` shows, inside the binary: no CDN, no request to anywhere but the server.
/// The script and style are files of their own (`/app.js`, `/style.css`): the page's
/// Content-Security-Policy allows no inline script or style.
enum ServePage {
    /// The page, or the kiosk view; `token` is what a change (`forget`) must carry.
    static func html(kiosk: Bool, token: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="cardscan-token" content="\(token)">
        <title>cardscan\(kiosk ? " — kiosk" : "")</title>
        <link rel="stylesheet" href="/style.css">
        <script src="/app.js" defer></script>
        </head>
        """ + (kiosk ? kioskBody : mainBody) + "\n</html>\n"
    }

    static let mainBody = """
        <body data-view="main">
        <header><h1>cardscan</h1><p class="note">Every read is kept in this computer's history (cardscan history); <a href="/kiosk">kiosk view</a></p></header>
        <section><h2>Readers</h2><ul id="readers"><li class="dim">no reader yet</li></ul></section>
        <section id="last" hidden><h2>Last read</h2><div id="last-report"></div></section>
        <section><h2>Cards</h2><ul id="cards"><li class="dim">no card kept yet</li></ul></section>
        <section id="card" hidden>
          <h2 id="card-name"></h2>
          <p id="card-balance" class="balance"></p>
          <h3>Balance over time</h3><svg id="chart" viewBox="0 0 600 160" role="img" aria-label="balance over time"></svg>
          <h3>Spending</h3><table id="spending"></table>
          <h3>Trips</h3>
          <form id="filters">
            <label>from <input type="date" id="from"></label> <label>to <input type="date" id="to"></label>
            <label>kind <select id="kind"><option value="">all</option></select></label>
            <a id="csv" href="#">CSV</a> <button type="button" id="forget">Forget this card</button>
          </form>
          <table id="trips"></table>
        </section>
        </body>
        """

    static let kioskBody = """
        <body data-view="kiosk" class="kiosk">
        <main id="kiosk"><p id="kiosk-prompt">Hold your card here</p><p id="kiosk-name"></p><p id="kiosk-balance" class="balance"></p></main>
        </body>
        """

    static let style = """
        body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; background: #fafafa; }
        h1 { margin: 0; } .note, .dim { color: #666; } section { margin-top: 1.5rem; }
        ul { list-style: none; padding: 0; } li { padding: .3rem 0; }
        .state-reading { color: #a65f00; } .state-read { color: #0a7a2f; } .state-partial, .state-failed { color: #b00020; }
        .balance { font-size: 1.6rem; font-weight: 600; }
        table { border-collapse: collapse; } td, th { padding: .2rem .6rem; text-align: left; border-bottom: 1px solid #ddd; }
        td.money { text-align: right; font-variant-numeric: tabular-nums; }
        svg { width: 100%; max-width: 600px; height: 160px; background: #fff; border: 1px solid #ddd; }
        svg polyline { fill: none; stroke: #0b5cad; stroke-width: 2; } svg circle { fill: #0b5cad; }
        button.card { background: none; border: none; color: #0b5cad; cursor: pointer; font-size: 1rem; padding: 0; }
        body.kiosk { display: flex; align-items: center; justify-content: center; height: 90vh; text-align: center; }
        #kiosk-prompt { font-size: 3rem; color: #555; } #kiosk-name { font-size: 2.5rem; margin: 0; }
        #kiosk .balance { font-size: 5rem; margin: .5rem 0; }
        """
}

import CardHistory
import CardProfiles
import Foundation
import Hummingbird

/// `serve`'s routes: the page, the kiosk view and their files (shipped inside the binary), the
/// JSON API under `/api/` (docs/serve.md) and the events stream.
enum ServeRoutes {
    static func router(store: HistoryStore, hub: ServeHub, security: ServeSecurity<BasicRequestContext>) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: security)
        let token = security.changeToken
        router.get("/") { _, _ in file(ServePage.html(kiosk: false, token: token), "text/html; charset=utf-8") }
        router.get("/kiosk") { _, _ in file(ServePage.html(kiosk: true, token: token), "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in file(ServePage.script, "text/javascript; charset=utf-8") }
        router.get("/style.css") { _, _ in file(ServePage.style, "text/css; charset=utf-8") }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/api/readers") { _, _ in json(.array(hub.readerStates)) }
        router.get("/api/cards") { _, _ in
            json(.array(try store.cards().map { c in c.json.adding(("id", .int(Int(c.id)))) }))
        }
        router.get("/api/cards/:id") { request, context in
            let c = try card(context, store)
            let q = request.uri.queryParameters
            let filter = TripFilter(
                from: q.get("from").flatMap { $0.isEmpty ? nil : $0 }, to: q.get("to").flatMap { $0.isEmpty ? nil : $0 },
                kind: q.get("kind").flatMap { $0.isEmpty ? nil : $0 }, limit: min(q.get("limit", as: Int.self) ?? 500, 10_000))
            let spending = try store.spending(of: c).map { p, amount in
                JSONValue.object([("period", .string(p)), ("amount", .int(amount)), ("currency", .string(c.currency))])
            }
            // The chart needs no more points than it has pixels: every read up to 400, else every
            // k-th (the last always).
            let all = try store.balances(of: c)
            let step = max(1, (all.count + 399) / 400)
            let balances = all.indices.filter { $0 % step == 0 || $0 == all.count - 1 }.map { all[$0] }
            return json(
                HistoryText.json(c, try store.trips(of: c, filter), balances).adding(("id", .int(Int(c.id))))
                    .adding(("kinds", .array(try store.kinds(of: c).map { .string($0) }))).adding(("spending", .array(spending))))
        }
        router.get("/api/cards/:id/trips.csv") { _, context in
            let c = try card(context, store)
            var r = file(HistoryText.csv(c, try store.trips(of: c)), "text/csv; charset=utf-8")
            r.headers[.contentDisposition] = "attachment; filename=\"\(c.number ?? "card")-trips.csv\""
            return r
        }
        router.post("/api/cards/:id/forget") { _, context in
            let c = try card(context, store)
            let (reads, trips) = try store.forget(c)
            return json(.object([("forgot", .int(Int(c.id))), ("reads", .int(reads)), ("trips", .int(trips))]))
        }
        router.get("/api/events") { _, _ in
            let stream = hub.subscribe()
            var r = Response(
                status: .ok,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: ": cardscan events\n\n"))
                    for await event in stream { try await writer.write(ByteBuffer(string: "data: \(event)\n\n")) }
                    try await writer.finish(nil)
                })
            r.headers[.contentType] = "text/event-stream"
            return r
        }
        return router
    }

    static func card(_ context: BasicRequestContext, _ store: HistoryStore) throws -> CardSummary {
        let id = try context.parameters.require("id", as: Int64.self)
        guard let c = try store.card(id: id) else { throw HTTPError(.notFound, message: "no such card") }
        return c
    }

    static func file(_ text: String, _ type: String) -> Response {
        var r = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        r.headers[.contentType] = type
        return r
    }

    static func json(_ value: JSONValue) -> Response { file(value.serialized(pretty: true) + "\n", "application/json") }
}

extension JSONValue {
    /// An object with `pair` added at its end (any other value as it is).
    func adding(_ pair: (String, JSONValue)) -> JSONValue {
        guard case .object(let pairs) = self else { return self }
        return .object(pairs + [pair])
    }
}

import Foundation
import HTTPTypes
import Hummingbird

/// `serve`'s rules, before any route: the `Host` must be one the server answers to (a page on
/// another site cannot reach it through DNS rebinding); off loopback, every request carries the
/// token (`Authorization: Bearer`, `?token=`, or the cookie the first such request sets); a
/// request that changes something (`forget`) needs the token and a same-origin `Origin` even on
/// loopback; every answer has a strict Content-Security-Policy. No CORS headers, ever.
struct ServeSecurity<Context: RequestContext>: RouterMiddleware {
    /// `host:port` forms the server answers to.
    let hosts: Set<String>
    /// The token; nil on loopback (then required only for changes).
    let token: String?
    /// The token changes need (the same as `token` off loopback, a per-run one on loopback).
    let changeToken: String

    static var policy: String {
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority?.lowercased(), hosts.contains(host) else {
            return Self.refusal(.misdirectedRequest, "this server does not answer to that host name")
        }
        let given = Self.token(in: request)
        if let token, given != token { return Self.refusal(.unauthorized, "the token is missing or wrong: open the address serve printed") }
        if request.method != .get && request.method != .head {
            guard request.headers[.origin] == "http://" + host else { return Self.refusal(.forbidden, "a change must come from this page") }
            guard given == changeToken || request.headers[HTTPField.Name("X-Cardscan-Token")!] == changeToken else {
                return Self.refusal(.forbidden, "a change needs the page's token")
            }
        }
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[.cacheControl] = "no-store"
        if let token, let query = request.uri.queryParameters.get("token"), query == token {
            response.headers[.setCookie] = "cardscan-token=\(token); Path=/; HttpOnly; SameSite=Strict"
        }
        return response
    }

    /// The token a request carries: the Authorization header, the query, or the cookie.
    static func token(in request: Request) -> String? {
        if let auth = request.headers[.authorization], auth.hasPrefix("Bearer ") { return String(auth.dropFirst(7)) }
        if let query = request.uri.queryParameters.get("token") { return query }
        for part in (request.headers[.cookie] ?? "").split(separator: ";") {
            let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if kv.count == 2, kv[0] == "cardscan-token" { return String(kv[1]) }
        }
        return nil
    }

    static func refusal(_ status: HTTPResponse.Status, _ reason: String) -> Response {
        var r = Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer(string: reason + "\n")))
        r.headers[.contentType] = "text/plain; charset=utf-8"
        r.headers[.contentSecurityPolicy] = policy
        return r
    }
}

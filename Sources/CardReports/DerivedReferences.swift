import ProfileLanguage

/// Derived fields' references, resolved to positions once per read.
struct DerivedReferences {
    /// Per field position: the two operands as (position, from the older record).
    private var operands: [[(index: Int, older: Bool)]?]

    init(_ fields: [Profile.NamedField]) {
        var position: [String: Int] = [:]
        for (i, f) in fields.enumerated() where position[f.name] == nil { position[f.name] = i }
        operands = fields.map { f in
            guard case .derived(_, let refs) = f.spec.source else { return nil }
            return refs.compactMap { ref in
                let older = ref.hasPrefix("older.")
                return position[older ? String(ref.dropFirst(6)) : ref].map { ($0, older) }
            }
        }
    }

    /// Whether field `i`'s operands are none of the derived fields still `pending`.
    func operandsReady(_ i: Int, derived pending: Set<Int>) -> Bool {
        (operands[i] ?? []).allSatisfy { !pending.contains($0.index) || $0.index == i }
    }

    /// a − b, a + b or a xor b, then scaled and added to; nil when an operand is missing;
    /// `warn` when the result overflows.
    func derive(_ i: Int, _ spec: FieldSpec, _ row: [FieldValue?], older: [FieldValue?]?, warn: (String) -> Void) -> FieldValue? {
        guard case .derived(let op, _) = spec.source, let ops = operands[i], ops.count == 2 else { return nil }
        func get(_ o: (index: Int, older: Bool)) -> Int? {
            let v: FieldValue?? = o.older ? older?[o.index] : row[o.index]
            return v??.intValue
        }
        guard let a = get(ops[0]), let b = get(ops[1]) ?? (spec.layout.absentIsZero ? 0 : nil) else { return nil }
        var (result, overflow): (Int, Bool)
        switch op {
        case .difference: (result, overflow) = a.subtractingReportingOverflow(b)
        case .sum: (result, overflow) = a.addingReportingOverflow(b)
        case .xor: (result, overflow) = (a ^ b, false)
        }
        // Then `scale` and `add`, as for a value read from bytes.
        if !overflow {
            let (scaled, o1) = result.multipliedReportingOverflow(by: spec.scale)
            let (sum, o2) = scaled.addingReportingOverflow(spec.add)
            (result, overflow) = (sum, o1 || o2)
        }
        guard !overflow else {
            warn(
                "\(a) \(op == .difference ? "−" : op == .sum ? "+" : "xor") \(b) (× \(spec.scale) + \(spec.add)) does not fit a 64-bit signed integer"
            )
            return nil
        }
        // A card number made of two parts is printed once it is whole.
        if let text = spec.numberText { return .string(text.write(.int(result))) }
        return spec.decimalText ? .string(String(result)) : .int(result)
    }
}

extension FieldSpec {
    var isDerived: Bool { if case .derived = source { return true } else { return false } }
}

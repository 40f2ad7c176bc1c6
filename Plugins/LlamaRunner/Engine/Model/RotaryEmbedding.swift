import Foundation

/// Rotary position embedding. The angles for a run of positions are computed once per forward
/// chunk and shared by every layer and head, following llama.cpp's float recurrence
/// (theta_{i+1} = theta_i × base^(-2/d)) so rounding matches the reference.
struct RotaryEmbedding {
    let style: LlamaHyperparameters.RopeStyle
    let dimensions: Int
    let base: Float

    var pairs: Int { dimensions / 2 }

    /// Fills cos/sin tables (`count` positions × `pairs`) for positions start..<start+count.
    func angles(start: Int, count: Int, cos cosOut: UnsafeMutablePointer<Float>, sin sinOut: UnsafeMutablePointer<Float>) {
        let thetaScale = powf(base, -2 / Float(dimensions))
        for t in 0..<count {
            var theta = Float(start + t)
            for i in 0..<pairs {
                cosOut[t * pairs + i] = cosf(theta)
                sinOut[t * pairs + i] = sinf(theta)
                theta *= thetaScale
            }
        }
    }

    /// Rotates `heads` consecutive head vectors of `headDim` floats in place.
    func apply(_ v: UnsafeMutablePointer<Float>, heads: Int, headDim: Int, cos: UnsafePointer<Float>, sin: UnsafePointer<Float>) {
        for h in 0..<heads {
            let x = v + h * headDim
            for i in 0..<pairs {
                let (a, b) = style == .adjacentPairs ? (2 * i, 2 * i + 1) : (i, i + dimensions / 2)
                let x0 = x[a], x1 = x[b]
                x[a] = x0 * cos[i] - x1 * sin[i]
                x[b] = x0 * sin[i] + x1 * cos[i]
            }
        }
    }
}

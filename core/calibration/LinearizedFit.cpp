#include "calibration/LinearizedFit.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <optional>

namespace tapestry {

namespace {

using Matrix = std::vector<std::vector<double>>;

// The inverse of a small symmetric positive semi-definite matrix by Gauss-Jordan
// elimination with partial pivoting; none when a pivot vanishes against the matrix's scale.
std::optional<Matrix> inverse(Matrix a)
{
    const std::size_t n = a.size();
    double scale = 0;
    for (std::size_t i = 0; i < n; ++i)
        scale = std::max(scale, std::abs(a[i][i]));
    Matrix inv(n, std::vector<double>(n, 0));
    for (std::size_t i = 0; i < n; ++i)
        inv[i][i] = 1;
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t row = col + 1; row < n; ++row) {
            if (std::abs(a[row][col]) > std::abs(a[pivot][col]))
                pivot = row;
        }
        if (!(std::abs(a[pivot][col]) > 1e-12 * scale))
            return std::nullopt;
        std::swap(a[col], a[pivot]);
        std::swap(inv[col], inv[pivot]);
        const double p = a[col][col];
        for (std::size_t k = 0; k < n; ++k) {
            a[col][k] /= p;
            inv[col][k] /= p;
        }
        for (std::size_t row = 0; row < n; ++row) {
            if (row == col)
                continue;
            const double factor = a[row][col];
            for (std::size_t k = 0; k < n; ++k) {
                a[row][k] -= factor * a[col][k];
                inv[row][k] -= factor * inv[col][k];
            }
        }
    }
    return inv;
}

}  // namespace

LinearizedFit linearizedFit(const std::vector<std::vector<double>>& elasticities, const std::vector<double>& logErrors)
{
    const std::size_t runs = logErrors.size();
    assert(elasticities.size() == runs && runs > 0);
    const std::size_t figures = elasticities.front().size();
    assert(runs > figures);
    Matrix normal(figures, std::vector<double>(figures, 0));  // J^T J
    std::vector<double> right(figures, 0);                     // -J^T y
    for (std::size_t r = 0; r < runs; ++r) {
        for (std::size_t i = 0; i < figures; ++i) {
            right[i] -= elasticities[r][i] * logErrors[r];
            for (std::size_t j = 0; j < figures; ++j)
                normal[i][j] += elasticities[r][i] * elasticities[r][j];
        }
    }
    LinearizedFit fit;
    fit.shift.assign(figures, 0);
    fit.standardError.assign(figures, std::numeric_limits<double>::infinity());
    const std::optional<Matrix> inv = inverse(normal);
    if (!inv)
        return fit;
    for (std::size_t i = 0; i < figures; ++i) {
        for (std::size_t j = 0; j < figures; ++j)
            fit.shift[i] += (*inv)[i][j] * right[j];
    }
    double squares = 0;
    for (std::size_t r = 0; r < runs; ++r) {
        double residual = logErrors[r];
        for (std::size_t i = 0; i < figures; ++i)
            residual += elasticities[r][i] * fit.shift[i];
        squares += residual * residual;
    }
    fit.residualSigma = std::sqrt(squares / static_cast<double>(runs - figures));
    for (std::size_t i = 0; i < figures; ++i)
        fit.standardError[i] = fit.residualSigma * std::sqrt((*inv)[i][i]);
    return fit;
}

}  // namespace tapestry

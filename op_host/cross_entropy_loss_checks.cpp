#include "cross_entropy_loss_checks.h"

#include <utility>

#include "aclnnop/aclnn_cross_entropy_loss.h"

namespace xent {
namespace {

// Both APIs: the (N, C) output is logProbOut (the forward) or gradOut (fused, which may
// be the input itself: each tile of it is read before the gradient is written over it).
CheckResult CheckArgs(const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional,
                      const char* reductionOptional, int64_t ignoreIndex, double labelSmoothing,
                      double lseSquareScaleForZloss, const aclTensor* lossOut, const aclTensor* rowsOut,
                      const char* rowsName, const aclTensor* zlossOut, const aclTensor* lseForZlossOut, bool fused,
                      double softcap, ForwardCheckedArgs* args) {
    CheckResult result;
    try {
        ForwardCheckedArgs& a = *args;
        // Every output is required (the vendor API's rule); zlossOut holds zeros without z-loss.
        const std::pair<const aclTensor*, const char*> required[] = {
            {input, "input"},     {target, "target"},         {lossOut, "lossOut"},
            {rowsOut, rowsName}, {zlossOut, "zlossOut"}, {lseForZlossOut, "lseForZlossOut"}};
        for (const auto& r : required)
            if (!r.first) Fail(ACLNN_ERR_PARAM_NULLPTR, std::string(r.second) + " is null");

        const int64_t reduction = CheckReduction(reductionOptional);
        CheckLabelSmoothing(labelSmoothing);
        CheckZlossScale(lseSquareScaleForZloss);
        if (fused) CheckSoftcap(softcap);

        a.input = Describe(input, "input");
        a.target = Describe(target, "target");
        a.weight = Describe(weightOptional, "weightOptional");
        a.loss = Describe(lossOut, "lossOut");
        a.logProb = Describe(rowsOut, rowsName);
        a.zloss = Describe(zlossOut, "zlossOut");
        a.lseForZloss = Describe(lseForZlossOut, "lseForZlossOut");

        const aclDataType dt = a.input.dtype;
        if (dt != ACL_FLOAT && dt != ACL_FLOAT16 && dt != ACL_BF16)
            Fail(ACLNN_ERR_PARAM_INVALID, std::string("input must be float32, float16 or bfloat16, got ") + DtypeName(dt));
        RequireSameDtype(a.loss, "lossOut", dt, "input");
        RequireSameDtype(a.logProb, rowsName, dt, "input");
        RequireSameDtype(a.zloss, "zlossOut", dt, "input");
        RequireSameDtype(a.lseForZloss, "lseForZlossOut", dt, "input");
        if (a.target.dtype != ACL_INT64 && a.target.dtype != ACL_INT32)
            Fail(ACLNN_ERR_PARAM_INVALID, std::string("target must be int64 or int32, got ") + DtypeName(a.target.dtype));
        if (a.weight.present && a.weight.dtype != ACL_FLOAT)
            Fail(ACLNN_ERR_PARAM_INVALID, std::string("weightOptional must be float32, got ") + DtypeName(a.weight.dtype));

        if (a.input.dims.size() != 2)
            Fail(ACLNN_ERR_PARAM_INVALID, "input must be 2-D (N, C), got " + ShapeText(a.input.dims));
        const int64_t N = a.input.dims[0], C = a.input.dims[1];
        CheckClassCount(C, "input", a.input.dims, labelSmoothing);
        RequireShape(a.target, "target", {N}, "(N,)");
        if (a.weight.present) RequireShape(a.weight, "weightOptional", {C}, "(C,)");
        RequireShape(a.logProb, rowsName, {N, C}, "(N, C)");
        RequireShape(a.lseForZloss, "lseForZlossOut", {N}, "(N,)");
        // Under mean/sum the vendor's example passes (1,); a 0-D tensor is accepted too.
        const TensorArg* reduced[] = {&a.loss, &a.zloss};
        const char* reducedNames[] = {"lossOut", "zlossOut"};
        for (int k = 0; k < 2; ++k) {
            if (reduction == XENT_NONE) {
                RequireShape(*reduced[k], reducedNames[k], {N}, "(N,) for reduction \"none\"");
            } else if (!reduced[k]->dims.empty() && reduced[k]->dims != std::vector<int64_t>{1}) {
                Fail(ACLNN_ERR_PARAM_INVALID, std::string(reducedNames[k]) +
                                                  " must have shape (1,) or () for \"mean\"/\"sum\", got " +
                                                  ShapeText(reduced[k]->dims));
            }
        }

        // No output may overlap an input or another output (the kernel reads and writes at
        // once), but for gradOut being exactly the input.
        const bool inPlace = fused && a.logProb.data == a.input.data && a.logProb.bytes == a.input.bytes;
        const std::pair<const TensorArg*, const char*> tensors[] = {
            {&a.input, "input"},       {&a.target, "target"},   {&a.weight, "weightOptional"},
            {&a.loss, "lossOut"},      {&a.logProb, rowsName}, {&a.zloss, "zlossOut"},
            {&a.lseForZloss, "lseForZlossOut"}};
        for (int o = 3; o < 7; ++o)
            for (int i = 0; i < o; ++i) {
                const bool rowsOverInput = tensors[o].first == &a.logProb && i == 0;
                if (rowsOverInput && inPlace) continue;
                if (Overlaps(*tensors[o].first, *tensors[i].first))
                    Fail(ACLNN_ERR_PARAM_INVALID, std::string(tensors[o].second) + " must not overlap " +
                                                      tensors[i].second +
                                                      (rowsOverInput && fused ? " except as exactly the same tensor (in place)" : ""));
            }

        ForwardProblem& p = a.problem;
        p.n = N;
        p.c = C;
        p.dtype = dt == ACL_FLOAT ? XENT_FP32 : (dt == ACL_FLOAT16 ? XENT_FP16 : XENT_BF16);
        p.targetBytes = a.target.dtype == ACL_INT64 ? 8 : 4;
        p.reduction = reduction;
        p.ignoreIndex = ignoreIndex;
        p.hasWeight = a.weight.present;
        p.labelSmoothing = labelSmoothing;
        p.zlossScale = lseSquareScaleForZloss;
        p.fused = fused;
        p.softcap = softcap;
    } catch (const CheckFailure& f) {
        result.status = f.status;
        result.message = f.message;
    }
    return result;
}

}  // namespace

CheckResult CheckCrossEntropyLossArgs(const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional,
                                      const char* reductionOptional, int64_t ignoreIndex, double labelSmoothing,
                                      double lseSquareScaleForZloss, bool /*returnZloss*/, const aclTensor* lossOut,
                                      const aclTensor* logProbOut, const aclTensor* zlossOut,
                                      const aclTensor* lseForZlossOut, ForwardCheckedArgs* args) {
    return CheckArgs(input, target, weightOptional, reductionOptional, ignoreIndex, labelSmoothing,
                     lseSquareScaleForZloss, lossOut, logProbOut, "logProbOut", zlossOut, lseForZlossOut, false, 0.0,
                     args);
}

CheckResult CheckCrossEntropyLossWithGradArgs(const aclTensor* input, const aclTensor* target,
                                              const aclTensor* weightOptional, const char* reductionOptional,
                                              int64_t ignoreIndex, double labelSmoothing,
                                              double lseSquareScaleForZloss, double softcap, const aclTensor* lossOut,
                                              const aclTensor* zlossOut, const aclTensor* lseForZlossOut,
                                              const aclTensor* gradOut, ForwardCheckedArgs* args) {
    return CheckArgs(input, target, weightOptional, reductionOptional, ignoreIndex, labelSmoothing,
                     lseSquareScaleForZloss, lossOut, gradOut, "gradOut", zlossOut, lseForZlossOut, true, softcap,
                     args);
}

}  // namespace xent

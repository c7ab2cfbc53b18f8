#include "cross_entropy_loss_grad_checks.h"

#include "aclnnop/aclnn_cross_entropy_loss_grad.h"

namespace xent {

CheckResult CheckCrossEntropyLossGradArgs(const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target,
                                          const aclTensor* weightOptional, const aclTensor* gradZlossOptional,
                                          const aclTensor* lseForZlossOptional, const char* reductionOptional,
                                          int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss,
                                          const aclTensor* out, CheckedArgs* args, const ClassShard* shard) {
    CheckResult result;
    try {
        CheckedArgs& a = *args;
        // Required pointers.
        if (!gradLoss) Fail(ACLNN_ERR_PARAM_NULLPTR, "gradLoss is null");
        if (!logProb) Fail(ACLNN_ERR_PARAM_NULLPTR, "logProb is null");
        if (!target) Fail(ACLNN_ERR_PARAM_NULLPTR, "target is null");
        if (!out) Fail(ACLNN_ERR_PARAM_NULLPTR, "out is null");

        // Options.
        const int64_t reduction = CheckReduction(reductionOptional);
        CheckLabelSmoothing(labelSmoothing);
        CheckZlossScale(lseSquareScaleForZloss);

        // Layouts.
        a.gradLoss = Describe(gradLoss, "gradLoss");
        a.logProb = Describe(logProb, "logProb");
        a.target = Describe(target, "target");
        a.weight = Describe(weightOptional, "weightOptional");
        a.gradZloss = Describe(gradZlossOptional, "gradZlossOptional");
        a.lseForZloss = Describe(lseForZlossOptional, "lseForZlossOptional");
        a.out = Describe(out, "out");
        const bool zloss = lseSquareScaleForZloss != 0.0;
        if (zloss && !a.lseForZloss.present)
            Fail(ACLNN_ERR_PARAM_NULLPTR, "lseForZlossOptional is null but lseSquareScaleForZloss is " +
                                              std::to_string(lseSquareScaleForZloss) + " (z-loss needs it)");

        // Dtypes.
        const aclDataType dt = a.logProb.dtype;
        if (dt != ACL_FLOAT && dt != ACL_FLOAT16 && dt != ACL_BF16)
            Fail(ACLNN_ERR_PARAM_INVALID,
                 std::string("logProb must be float32, float16 or bfloat16, got ") + DtypeName(dt));
        RequireSameDtype(a.gradLoss, "gradLoss", dt, "logProb");
        RequireSameDtype(a.gradZloss, "gradZlossOptional", dt, "logProb");
        RequireSameDtype(a.lseForZloss, "lseForZlossOptional", dt, "logProb");
        RequireSameDtype(a.out, "out", dt, "logProb");
        if (a.target.dtype != ACL_INT64 && a.target.dtype != ACL_INT32)
            Fail(ACLNN_ERR_PARAM_INVALID, std::string("target must be int64 or int32, got ") + DtypeName(a.target.dtype));
        if (a.weight.present && a.weight.dtype != ACL_FLOAT)
            Fail(ACLNN_ERR_PARAM_INVALID,
                 std::string("weightOptional must be float32, got ") + DtypeName(a.weight.dtype));

        // Shapes.
        if (a.logProb.dims.size() != 2)
            Fail(ACLNN_ERR_PARAM_INVALID, "logProb must be 2-D (N, C), got " + ShapeText(a.logProb.dims));
        const int64_t N = a.logProb.dims[0], C = a.logProb.dims[1];
        CheckClassCount(C, "logProb", a.logProb.dims, labelSmoothing);
        RequireShape(a.target, "target", {N}, "(N,)");
        RequireShape(a.out, "out", {N, C}, "(N, C)");
        if (shard) {
            if (shard->count < 1 || shard->count > (int64_t(1) << 30))
                Fail(ACLNN_ERR_PARAM_INVALID,
                     "classCount must be in [1, 2^30], got " + std::to_string(shard->count));
            if (shard->offset < 0 || shard->offset > shard->count - C)
                Fail(ACLNN_ERR_PARAM_INVALID, "classOffset must be in [0, classCount - C] = [0, " +
                                                  std::to_string(shard->count - C) + "] for logProb " +
                                                  ShapeText(a.logProb.dims) + ", got " +
                                                  std::to_string(shard->offset));
        }
        const int64_t classes = shard ? shard->count : C;
        if (a.weight.present)
            RequireShape(a.weight, "weightOptional", {classes}, shard ? "(classCount,)" : "(C,)");
        if (a.lseForZloss.present) RequireShape(a.lseForZloss, "lseForZlossOptional", {N}, "(N,)");
        const std::vector<int64_t> gradShape = reduction == XENT_NONE ? std::vector<int64_t>{N} : std::vector<int64_t>{};
        const char* gradWhat = reduction == XENT_NONE ? "(N,) for reduction \"none\"" : "() (0-D) for \"mean\"/\"sum\"";
        RequireShape(a.gradLoss, "gradLoss", gradShape, gradWhat);
        if (a.gradZloss.present) RequireShape(a.gradZloss, "gradZlossOptional", gradShape, gradWhat);

        // out may be logProb itself (in place: each core reads a tile of logProb before it
        // writes the same elements of out, and no other core touches them); any other
        // overlap with an input is refused (the kernel streams in and out at once).
        const bool inPlace = a.out.data == a.logProb.data && a.out.bytes == a.logProb.bytes;
        const std::pair<const TensorArg*, const char*> inputs[] = {
            {&a.gradLoss, "gradLoss"},   {&a.logProb, "logProb"},
            {&a.target, "target"},       {&a.weight, "weightOptional"},
            {&a.gradZloss, "gradZlossOptional"}, {&a.lseForZloss, "lseForZlossOptional"}};
        for (const auto& in : inputs) {
            if (in.first == &a.logProb && inPlace) continue;
            if (Overlaps(a.out, *in.first))
                Fail(ACLNN_ERR_PARAM_INVALID,
                     std::string("out must not overlap ") + in.second +
                         (in.first == &a.logProb ? " except as exactly the same tensor (in place)" : ""));
        }

        TilingProblem& p = a.problem;
        p.n = N;
        p.c = C;
        p.dtype = dt == ACL_FLOAT ? XENT_FP32 : (dt == ACL_FLOAT16 ? XENT_FP16 : XENT_BF16);
        p.targetBytes = a.target.dtype == ACL_INT64 ? 8 : 4;
        p.reduction = reduction;
        p.ignoreIndex = ignoreIndex;
        p.hasWeight = a.weight.present;
        p.hasGradZloss = a.gradZloss.present;
        p.hasLse = a.lseForZloss.present;
        p.labelSmoothing = labelSmoothing;
        p.zlossScale = lseSquareScaleForZloss;
        p.classOffset = shard ? shard->offset : 0;
        p.classTotal = classes;
    } catch (const CheckFailure& f) {
        result.status = f.status;
        result.message = f.message;
    }
    return result;
}

}  // namespace xent

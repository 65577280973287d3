#include "ImGuiRenderer.hpp"

#include <QOpenGLContext>
#include <cstddef>
#include <imgui.h>
#include <stdexcept>

namespace tilescope::gui {
namespace {

const char* const kVertexShader = R"(
uniform mat4 projection;
in vec2 position;
in vec2 uv;
in vec4 colour;
out vec2 fragUv;
out vec4 fragColour;
void main() {
    fragUv = uv;
    fragColour = colour;
    gl_Position = projection * vec4(position, 0.0, 1.0);
}
)";

const char* const kFragmentShader = R"(
uniform sampler2D fontTexture;
in vec2 fragUv;
in vec4 fragColour;
out vec4 outColour;
void main() {
    outColour = fragColour * texture(fontTexture, fragUv);
}
)";

QByteArray shaderHeader() {
    const QOpenGLContext* context = QOpenGLContext::currentContext();
    if (context && context->isOpenGLES())
        return "#version 300 es\nprecision mediump float;\n";
    const auto version = context ? context->format().version() : qMakePair(3, 0);
    // A core profile needs GLSL 1.40 or later; compatibility contexts accept 1.30.
    return version >= qMakePair(3, 2) && context->format().profile() == QSurfaceFormat::CoreProfile
               ? "#version 150\n"
               : "#version 130\n";
}

} // namespace

ImGuiRenderer::ImGuiRenderer() = default;
ImGuiRenderer::~ImGuiRenderer() = default;

void ImGuiRenderer::initialize() {
    initializeOpenGLFunctions();
    program_ = std::make_unique<QOpenGLShaderProgram>();
    const QByteArray header = shaderHeader();
    if (!program_->addShaderFromSourceCode(QOpenGLShader::Vertex, header + kVertexShader) ||
        !program_->addShaderFromSourceCode(QOpenGLShader::Fragment, header + kFragmentShader) ||
        !program_->link())
        throw std::runtime_error("cannot build the chart shaders: " +
                                 program_->log().toStdString());
    projectionLocation_ = program_->uniformLocation("projection");
    textureLocation_ = program_->uniformLocation("fontTexture");
    positionAttr_ = program_->attributeLocation("position");
    uvAttr_ = program_->attributeLocation("uv");
    colourAttr_ = program_->attributeLocation("colour");
    vao_.create();
    vertices_.create();
    vertices_.setUsagePattern(QOpenGLBuffer::StreamDraw);
    indices_.create();
    indices_.setUsagePattern(QOpenGLBuffer::StreamDraw);
}

void ImGuiRenderer::uploadFonts(ImFontAtlas& atlas) {
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    atlas.GetTexDataAsRGBA32(&pixels, &width, &height);
    if (fontTexture_ == 0)
        glGenTextures(1, &fontTexture_);
    glBindTexture(GL_TEXTURE_2D, fontTexture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    atlas.SetTexID(reinterpret_cast<ImTextureID>(static_cast<quintptr>(fontTexture_)));
    // The atlas keeps its glyph tables; the pixel copy is on the GPU now.
    atlas.ClearTexData();
}

void ImGuiRenderer::setVertexPointers(quintptr base) {
    const int stride = sizeof(ImDrawVert);
    program_->setAttributeBuffer(positionAttr_, GL_FLOAT, base + offsetof(ImDrawVert, pos), 2,
                                 stride);
    program_->setAttributeBuffer(uvAttr_, GL_FLOAT, base + offsetof(ImDrawVert, uv), 2, stride);
    glVertexAttribPointer(colourAttr_, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          reinterpret_cast<const void*>(base + offsetof(ImDrawVert, col)));
}

void ImGuiRenderer::render(const ImDrawData& data) {
    const float fbWidth = data.DisplaySize.x * data.FramebufferScale.x;
    const float fbHeight = data.DisplaySize.y * data.FramebufferScale.y;
    if (fbWidth <= 0 || fbHeight <= 0 || !program_)
        return;

    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_SCISSOR_TEST);

    const float l = data.DisplayPos.x, r = data.DisplayPos.x + data.DisplaySize.x;
    const float t = data.DisplayPos.y, b = data.DisplayPos.y + data.DisplaySize.y;
    const QMatrix4x4 projection(2.0f / (r - l), 0, 0, (r + l) / (l - r), //
                                0, 2.0f / (t - b), 0, (t + b) / (b - t), //
                                0, 0, -1, 0,                             //
                                0, 0, 0, 1);
    program_->bind();
    program_->setUniformValue(projectionLocation_, projection);
    program_->setUniformValue(textureLocation_, 0);
    QOpenGLVertexArrayObject::Binder vaoBinder(&vao_);
    vertices_.bind();
    indices_.bind();
    program_->enableAttributeArray(positionAttr_);
    program_->enableAttributeArray(uvAttr_);
    program_->enableAttributeArray(colourAttr_);
    glActiveTexture(GL_TEXTURE0);

    const GLenum indexType = sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
    const ImVec2 clipOffset = data.DisplayPos;
    const ImVec2 clipScale = data.FramebufferScale;
    for (int n = 0; n < data.CmdListsCount; ++n) {
        const ImDrawList* list = data.CmdLists[n];
        vertices_.allocate(list->VtxBuffer.Data, list->VtxBuffer.Size * int(sizeof(ImDrawVert)));
        indices_.allocate(list->IdxBuffer.Data, list->IdxBuffer.Size * int(sizeof(ImDrawIdx)));
        unsigned int currentVtxOffset = ~0u;
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback)
                continue; // charts never register callbacks
            const float x0 = (cmd.ClipRect.x - clipOffset.x) * clipScale.x;
            const float y0 = (cmd.ClipRect.y - clipOffset.y) * clipScale.y;
            const float x1 = (cmd.ClipRect.z - clipOffset.x) * clipScale.x;
            const float y1 = (cmd.ClipRect.w - clipOffset.y) * clipScale.y;
            if (x1 <= x0 || y1 <= y0)
                continue;
            if (cmd.VtxOffset != currentVtxOffset) {
                currentVtxOffset = cmd.VtxOffset;
                setVertexPointers(quintptr(cmd.VtxOffset) * sizeof(ImDrawVert));
            }
            glScissor(int(x0), int(fbHeight - y1), int(x1 - x0), int(y1 - y0));
            glBindTexture(GL_TEXTURE_2D, GLuint(reinterpret_cast<quintptr>(cmd.GetTexID())));
            glDrawElements(
                GL_TRIANGLES, GLsizei(cmd.ElemCount), indexType,
                reinterpret_cast<const void*>(quintptr(cmd.IdxOffset) * sizeof(ImDrawIdx)));
        }
    }
    program_->disableAttributeArray(positionAttr_);
    program_->disableAttributeArray(uvAttr_);
    program_->disableAttributeArray(colourAttr_);
    program_->release();
    glDisable(GL_SCISSOR_TEST);
}

void ImGuiRenderer::release() {
    if (fontTexture_)
        glDeleteTextures(1, &fontTexture_);
    fontTexture_ = 0;
    vertices_.destroy();
    indices_.destroy();
    vao_.destroy();
    program_.reset();
}

} // namespace tilescope::gui

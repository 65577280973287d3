#include "ImGuiCanvas.hpp"

#include "ImGuiRenderer.hpp"

#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QFontInfo>
#include <QMouseEvent>
#include <cfloat>

namespace tilescope::gui {
namespace {

/// Makes `context` current for the lifetime of the guard and restores the previous one, since
/// every canvas has its own ImGui context and ImGui keeps the current one in a global.
class ContextGuard {
public:
    explicit ContextGuard(ImGuiContext* context) : previous_(ImGui::GetCurrentContext()) {
        ImGui::SetCurrentContext(context);
    }
    ~ContextGuard() { ImGui::SetCurrentContext(previous_); }
    ContextGuard(const ContextGuard&) = delete;
    ContextGuard& operator=(const ContextGuard&) = delete;

private:
    ImGuiContext* previous_;
};

/// A proportional UI font if the system has one at a well-known path; ImGui's built-in bitmap
/// font is the fallback (always present, but only crisp at 13 px and 1x).
QString systemFontPath() {
    for (const char* path :
         {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
          "/usr/share/fonts/dejavu/DejaVuSans.ttf"})
        if (QFile::exists(QString::fromLatin1(path)))
            return QString::fromLatin1(path);
    return {};
}

ImVec4 toVec4(const QColor& c) {
    return ImVec4(float(c.redF()), float(c.greenF()), float(c.blueF()), float(c.alphaF()));
}

} // namespace

ImGuiCanvas::ImGuiCanvas(QWidget* parent)
    : QOpenGLWidget(parent), renderer_(std::make_unique<ImGuiRenderer>()) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    ImGuiContext* previous = ImGui::GetCurrentContext();
    context_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // no imgui.ini next to the user's files
    io.LogFilename = nullptr;
    io.BackendRendererName = "tilescope-qopengl";
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    applyPaletteStyle();
    ImGui::SetCurrentContext(previous);
}

ImGuiCanvas::~ImGuiCanvas() {
    // ~QOpenGLWidget destroys the context after this object's members are gone: the context must
    // not call back into releaseGL() then.
    QObject::disconnect(contextConnection_);
    releaseGL();
    ImGui::DestroyContext(context_);
}

ImU32 ImGuiCanvas::colour(const QColor& c, double alpha) const {
    QColor x = c;
    if (alpha >= 0)
        x.setAlphaF(float(alpha));
    return ImGui::ColorConvertFloat4ToU32(toVec4(x));
}

void ImGuiCanvas::buildFonts(double devicePixelRatio) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    // Rasterise at device pixels and scale back, so text is sharp on high-DPI screens.
    const float logicalPx = float(std::max(11, QFontInfo(font()).pixelSize()));
    ImFontConfig config;
    config.SizePixels = logicalPx * float(devicePixelRatio);
    config.OversampleH = 2;
    const QString path = systemFontPath();
    ImFont* f = nullptr;
    // Latin-1 plus general punctuation (en dash, ellipsis, thin space used in grouped numbers).
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2000, 0x206F, 0};
    if (!path.isEmpty())
        f = io.Fonts->AddFontFromFileTTF(QFile::encodeName(path).constData(), config.SizePixels,
                                         &config, ranges);
    if (!f)
        io.Fonts->AddFontDefault(&config);
    io.FontGlobalScale = float(1.0 / devicePixelRatio);
    io.Fonts->Build();
    renderer_->uploadFonts(*io.Fonts);
    fontPixelRatio_ = devicePixelRatio;
}

void ImGuiCanvas::applyPaletteStyle() {
    ImGuiStyle& style = ImGui::GetStyle();
    const QPalette& p = palette();
    style.Colors[ImGuiCol_Text] = toVec4(p.color(QPalette::ToolTipText));
    style.Colors[ImGuiCol_PopupBg] = toVec4(p.color(QPalette::ToolTipBase));
    style.Colors[ImGuiCol_Border] = toVec4(p.color(QPalette::Mid));
    style.WindowRounding = 3.0f;
    style.PopupRounding = 3.0f;
}

void ImGuiCanvas::initializeGL() {
    initializeOpenGLFunctions();
    ContextGuard guard(context_);
    renderer_->initialize();
    buildFonts(devicePixelRatioF());
    // The context is replaced when the widget moves to another window: free our GL objects first.
    QObject::disconnect(contextConnection_);
    contextConnection_ =
        connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ImGuiCanvas::releaseGL);
}

void ImGuiCanvas::releaseGL() {
    if (!context())
        return;
    makeCurrent();
    renderer_->release();
    doneCurrent();
    fontPixelRatio_ = 0;
}

void ImGuiCanvas::paintGL() {
    ContextGuard guard(context_);
    const double dpr = devicePixelRatioF();
    if (dpr != fontPixelRatio_)
        buildFonts(dpr);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(width()), float(height()));
    io.DisplayFramebufferScale = ImVec2(float(dpr), float(dpr));
    io.DeltaTime = 1.0f / 60.0f; // charts do not animate; ImGui only needs a positive step
    io.MousePos =
        hover_ ? ImVec2(float(hoverPos_.x()), float(hoverPos_.y())) : ImVec2(-FLT_MAX, -FLT_MAX);

    QElapsedTimer timer;
    timer.start();
    ImGui::NewFrame();
    drawFrame(*ImGui::GetBackgroundDrawList(), QSizeF(width(), height()));
    ImGui::Render();
    lastFramePrepMs_ = double(timer.nsecsElapsed()) / 1e6;
    worstFramePrepMs_ = std::max(worstFramePrepMs_, lastFramePrepMs_);
    ++frames_;

    const QColor bg = palette().color(QPalette::Base);
    glViewport(0, 0, int(width() * dpr), int(height() * dpr));
    glClearColor(float(bg.redF()), float(bg.greenF()), float(bg.blueF()), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    renderer_->render(*ImGui::GetDrawData());
}

void ImGuiCanvas::mouseMoveEvent(QMouseEvent* event) {
    hover_ = true;
    hoverPos_ = event->position();
    update();
}

void ImGuiCanvas::leaveEvent(QEvent* event) {
    hover_ = false;
    update();
    QOpenGLWidget::leaveEvent(event);
}

void ImGuiCanvas::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        ContextGuard guard(context_);
        applyPaletteStyle();
        fontPixelRatio_ = 0; // rebuild fonts at the next frame (font size may have changed)
        update();
    }
    QOpenGLWidget::changeEvent(event);
}

} // namespace tilescope::gui

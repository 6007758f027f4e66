import CheckOutlined from '@ant-design/icons/CheckOutlined';
import { THEME_PRESETS, type LayoutSettings } from '@cloud-classroom/shared/constants';
import { ColorPicker, Divider, Switch, theme } from 'antd';
import { useLayoutMessages } from './layout-messages';
import { useSettingsStore } from './settings-store';

const SWITCHES = [
  ['tagsView', 'settings.tagsView'],
  ['fixedHeader', 'settings.fixedHeader'],
  ['sidebarLogo', 'settings.sidebarLogo'],
  ['uniqueOpened', 'settings.uniqueOpened'],
] as const satisfies readonly (readonly [keyof LayoutSettings, string])[];

/** The shades antd derives from the primary colour, lightest first: what the whole back office uses. */
function Palette() {
  const { token } = theme.useToken();
  const shades = [
    token.colorPrimaryBg,
    token.colorPrimaryBgHover,
    token.colorPrimaryBorder,
    token.colorPrimaryBorderHover,
    token.colorPrimaryHover,
    token.colorPrimary,
    token.colorPrimaryActive,
    token.colorPrimaryTextActive,
  ];
  return (
    <div className="settings-palette">
      {shades.map((shade, index) => (
        <span key={index} className="settings-palette__shade" style={{ background: shade }} title={shade} />
      ))}
    </div>
  );
}

export default function SettingsPanel() {
  const m = useLayoutMessages();
  const settings = useSettingsStore();
  return (
    <div className="settings-panel">
      <h3 className="settings-panel__heading">{m('settings.themeColour')}</h3>
      <div className="settings-presets">
        {THEME_PRESETS.map((colour) => (
          <button
            key={colour}
            type="button"
            className="settings-presets__colour"
            style={{ background: colour }}
            aria-label={colour}
            aria-pressed={settings.theme.toLowerCase() === colour.toLowerCase()}
            onClick={() => settings.setTheme(colour)}
          >
            {settings.theme.toLowerCase() === colour.toLowerCase() && <CheckOutlined />}
          </button>
        ))}
      </div>
      <div className="settings-row">
        <span>{m('settings.customColour')}</span>
        <ColorPicker value={settings.theme} disabledAlpha onChangeComplete={(colour) => settings.setTheme(colour.toHexString())} />
      </div>
      <div className="settings-row settings-row--stacked">
        <span>{m('settings.palette')}</span>
        <Palette />
      </div>
      <Divider />
      {SWITCHES.map(([key, label]) => (
        <div key={key} className="settings-row">
          <span>{m(label)}</span>
          <Switch checked={settings[key]} aria-label={m(label)} onChange={(checked) => settings.change(key, checked)} />
        </div>
      ))}
    </div>
  );
}

import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../plugin-api';
import { CarrierAAutoShipments } from './carrier-a-auto-shipments.service';
import { CarrierAPickupPoints } from './carrier-a-pickup-points.service';
import { CarrierAShipmentCarrier } from './carrier-a-shipment-carrier';
import { CarrierAShipments } from './carrier-a-shipments.service';
import { CarrierAStaffParcels } from './carrier-a-staff-parcels';
import { CarrierAShippingProvider } from './carrier-a-shipping.provider';
import { CarrierAClient } from './carrier-a.client';
import { CarrierAPlugin } from './carrier-a.plugin';
import { CARRIER_A_DASHBOARD, CARRIER_A_SETTINGS } from './carrier-a.settings';
import { CarrierADashboard } from './cp/carrier-a-dashboard';
import { CarrierAOrderSection } from './cp/carrier-a-order-section';

/** Carrier A: parcels, labels, tracking and ParcelShop pickup points. */
@Module({
  imports: [PluginSettingsModule.register([...CARRIER_A_SETTINGS, CARRIER_A_DASHBOARD.setting])],
  providers: [
    CarrierAClient,
    CarrierAPickupPoints,
    CarrierAShippingProvider,
    CarrierAShipments,
    CarrierAShipmentCarrier,
    CarrierAAutoShipments,
    CarrierAStaffParcels,
    CarrierADashboard,
    CarrierAOrderSection,
    CarrierAPlugin,
  ],
  exports: [
    CarrierAClient,
    CarrierAShipments,
    CarrierAShipmentCarrier,
    CarrierAAutoShipments,
    CarrierAStaffParcels,
    CarrierAOrderSection,
  ],
})
export class CarrierAPluginModule {}
